import type { Key } from 'ink';
import { useState } from 'react';
import { clamp } from './format.js';

export interface Selection {
  /** The selected row, kept inside the list as it shrinks. */
  readonly current: number;
  /** Back to the first row (a new filter). */
  reset(): void;
  /** ↑↓ by a row, page up/down by ten; true when the key was used. */
  handle(key: Key): boolean;
}

/** The selected row of a list of `count` rows. */
export const useSelection = (count: number): Selection => {
  const [selected, setSelected] = useState(0);
  const current = clamp(selected, count);
  const to = (row: number): true => {
    setSelected(clamp(row, count));
    return true;
  };
  return {
    current,
    reset: () => setSelected(0),
    handle: (key) => {
      if (key.upArrow) return to(current - 1);
      if (key.downArrow) return to(current + 1);
      if (key.pageUp) return to(current - 10);
      if (key.pageDown) return to(current + 10);
      return false;
    },
  };
};
