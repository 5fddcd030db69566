import { useEffect, useState } from 'react';
import type { UiModel } from './model.js';

/** Re-renders on every change the model reports and, with `tickMs`, on a clock (uptimes, retry countdowns). */
export const useLiveModel = (model: UiModel, tickMs?: number): void => {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const bump = (): void => setVersion((version) => version + 1);
    const stop = model.subscribe(bump);
    const tick = tickMs === undefined ? undefined : setInterval(bump, tickMs);
    return () => {
      stop();
      clearInterval(tick);
    };
  }, [model, tickMs]);
};
