/** setTimeout's limit: larger delays fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

export const FILTER_KINDS = ['tools', 'prompts', 'resources'] as const;
