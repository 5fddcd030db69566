import type { Key } from 'ink';
import { useState } from 'react';
import { maxOffset } from './components.js';

export interface Scroll {
  readonly offset: number;
  reset(): void;
  /** ↑↓, page up/down, home/end over a text of `length` rows shown in `height`; true when used. */
  handle(key: Key, length: number, height: number): boolean;
}

export const useScroll = (): Scroll => {
  const [offset, setOffset] = useState(0);
  return {
    offset,
    reset: () => setOffset(0),
    handle: (key, length, height) => {
      const last = maxOffset(length, height);
      const to = (value: number): true => {
        setOffset(Math.max(0, Math.min(value, last)));
        return true;
      };
      if (key.upArrow) return to(offset - 1);
      if (key.downArrow) return to(offset + 1);
      if (key.pageUp) return to(offset - (height - 2));
      if (key.pageDown) return to(offset + (height - 2));
      if (key.home) return to(0);
      if (key.end) return to(last);
      return false;
    },
  };
};
