/** setTimeout's limit: larger delays fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

export const FILTER_KINDS = ['tools', 'prompts', 'resources'] as const;

export const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
