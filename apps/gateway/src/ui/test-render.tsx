import { render } from 'ink-testing-library';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { KeyRoot } from './keys.js';
import type { UiModel } from './model.js';
import type { PanelProps } from './panel.js';

export const keys = {
  up: '\u001B[A',
  down: '\u001B[B',
  enter: '\r',
  escape: '\u001B',
  tab: '\t',
  shiftTab: '\u001B[Z',
  backspace: '\u007F',
  ctrlS: '\u0013',
} as const;

export interface Rendered {
  /** The last frame, colors stripped by ink-testing-library's plain stdout. */
  frame(): string;
  /** Types keys one write at a time, letting each render before the next. */
  press(...inputs: string[]): Promise<void>;
  /** Waits until the frame satisfies `check` (an assertion that throws until it holds). */
  until(check: (frame: string) => void): Promise<void>;
  unmount(): void;
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 15));

export const renderUi = async (tree: ReactNode): Promise<Rendered> => {
  const app = render(<>{tree}</>);
  await settle();
  const frame = (): string => app.lastFrame() ?? '';
  return {
    frame,
    press: async (...inputs) => {
      for (const input of inputs) {
        app.stdin.write(input);
        await settle();
      }
    },
    until: (check) => vi.waitFor(() => check(frame()), { timeout: 2000, interval: 10 }),
    unmount: () => app.unmount(),
  };
};

/** One panel alone, active, in the 80×24 screen's panel area (22 rows). */
export const renderPanel = (Panel: (props: PanelProps) => ReactNode, model: UiModel): Promise<Rendered> =>
  renderUi(
    <KeyRoot>
      <Panel model={model} active width={80} height={22} />
    </KeyRoot>,
  );
