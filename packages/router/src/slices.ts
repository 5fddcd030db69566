/**
 * Long work in slices: written as a generator that yields between items (`yield` costs nothing when
 * there is time left), run until it is done or has held the event loop for `SLICE_MS`, then resumed
 * after the loop's other work (calls, other servers' lists) had its turn. Work that fits in one slice
 * — every list of a usual size — is done at once, synchronously, as a plain function would be.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Longest the event loop is held by one slice: a call through the gateway waits a few slices (one per hop between the client, the gateway and the server). */
export const SLICE_MS = 10;

/** Work that yields (nothing) between items, and returns `T`. */
export type Sliced<T> = Generator<void, T, void>;

/** How often the clock is read: every this many yields. */
const CHECK_EVERY = 32;

/** One slice: the result when the work ended in it, else `undefined`. */
const slice = <T>(work: Sliced<T>): { readonly value: T } | undefined => {
  const until = performance.now() + SLICE_MS;
  for (let steps = 1; ; steps++) {
    const next = work.next();
    if (next.done === true) return { value: next.value };
    if (steps % CHECK_EVERY === 0 && performance.now() >= until) return undefined;
  }
};

/** Runs `work` in slices: its result at once when one slice was enough, else a promise of it. */
export const runSliced = <T>(work: Sliced<T>): T | Promise<T> => {
  const first = slice(work);
  if (first !== undefined) return first.value;
  return (async () => {
    for (;;) {
      await nextTurn();
      const done = slice(work);
      if (done !== undefined) return done.value;
    }
  })();
};

/** Runs `work` to its end now, however long it takes (tests, and callers that must have the result at once). */
export const runNow = <T>(work: Sliced<T>): T => {
  for (;;) {
    const next = work.next();
    if (next.done === true) return next.value;
  }
};
