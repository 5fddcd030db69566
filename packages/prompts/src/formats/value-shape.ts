/** A plain mapping (YAML mapping, TOML table) — not a list, a date or null. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** "a string", "a list", … for messages that say what was found instead of what was expected. */
export const describeValue = (value: unknown): string => {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'boolean') return `${value}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'string') return 'a string';
  return typeof value;
};
