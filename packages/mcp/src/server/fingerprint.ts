import { createHash } from 'node:crypto';
import type { ListAnswer, ListKind } from '../handlers.js';
import type { Adapter } from './adapter.js';
import { listResources } from './resources.js';

/** Lists the pages of `list` as an anonymous caller sees them; `undefined` for a list the handlers do not serve. */
const listerOf = (adapter: Adapter, list: ListKind): ((cursor: string | undefined) => ListAnswer) | undefined => {
  const { prompts, tools } = adapter.handlers;
  if (list === 'prompts') return (cursor) => prompts.list(cursor);
  if (list === 'tools') return tools === undefined ? undefined : (cursor) => tools.list(cursor);
  return (cursor) => listResources(adapter, cursor, undefined);
};

/** The handlers' digest of a list, or every page of it hashed in order. */
export const fingerprintOf = async (adapter: Adapter, list: ListKind): Promise<string> => {
  const own = adapter.handlers.fingerprint?.(list);
  if (own !== undefined) return own;
  const hash = createHash('sha256');
  const lister = listerOf(adapter, list);
  let cursor: string | undefined;
  do {
    const answer = lister?.(cursor) ?? { items: [] };
    const listedPage = answer instanceof Promise ? await answer : answer;
    hash.update(JSON.stringify(listedPage.items));
    cursor = listedPage.nextCursor;
  } while (cursor !== undefined);
  return hash.digest('base64url');
};
