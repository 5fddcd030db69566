import type { UiModel } from './model.js';

/** What every panel gets from the app: the model, its share of the screen, and the input lock. */
export interface PanelProps {
  readonly model: UiModel;
  /** Only the active panel reads keys. */
  readonly active: boolean;
  readonly width: number;
  /** Rows for the panel, its help line (the screen's last row) included. */
  readonly height: number;
}
