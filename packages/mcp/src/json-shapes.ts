/** A JSON object (not null, not an array): what a JSON-RPC message, its params and its `_meta` must be. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
