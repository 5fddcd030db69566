/**
 * Start-up marks for measuring where a binary's start goes: with `PROMPTYARD_STARTUP_MARKS=1`, each
 * mark is one line on stderr, `startup: <label> at <ms> ms`, in milliseconds since the process
 * started (`performance.now()`). Off (the default), a mark costs one lookup.
 */
export const STARTUP_MARKS_VARIABLE = 'PROMPTYARD_STARTUP_MARKS';

export const startupMark = (label: string): void => {
  if (process.env[STARTUP_MARKS_VARIABLE] === '1') process.stderr.write(`startup: ${label} at ${performance.now().toFixed(1)} ms\n`);
};
