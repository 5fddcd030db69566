import { encodeUri } from './names.js';

/**
 * Every URI that names a resource, mapped to the gateway's namespaced form for the server it came
 * from, so a client can read it back through the gateway: resource links and embedded resources in
 * tool results, prompt messages and resource contents, and the MCP Apps UI resource of a tool
 * (`_meta.ui.resourceUri`, and the older flat `_meta["ui/resourceUri"]`) on tools and results.
 *
 * Results are the backend's, forwarded without schema validation: anything that is not the
 * expected shape is left as it is. Nothing is copied unless a URI in it changes, which keeps the
 * relay's hot path (a text-only result) free of allocations.
 */

/** A server's URI as clients reach it through the gateway. */
export type UriMap = (uri: string) => string;

const maps = new Map<string, UriMap>();

/**
 * `<scheme>+<uri>` for a prefixed server; `undefined` for a pass-through one (prefix = false), whose
 * URIs stay as they are. One map per prefix, made once: the relay asks for it on every call.
 */
export const uriMapFor = (prefix: string | false): UriMap | undefined => {
  if (prefix === false) return undefined;
  let map = maps.get(prefix);
  if (map === undefined) {
    map = (uri) => encodeUri(prefix, uri);
    maps.set(prefix, map);
  }
  return map;
};

type Json = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const FLAT_UI_KEY = 'ui/resourceUri';

/** A content block with its URI mapped: `resource_link` (uri) and `resource` (resource.uri); any other block as it is. */
const rewriteBlock = (block: unknown, map: UriMap): unknown => {
  if (!isObject(block)) return block;
  if (block['type'] === 'resource_link') return typeof block['uri'] === 'string' ? { ...block, uri: map(block['uri']) } : block;
  if (block['type'] === 'resource') {
    const resource = block['resource'];
    return isObject(resource) && typeof resource['uri'] === 'string'
      ? { ...block, resource: { ...resource, uri: map(resource['uri']) } }
      : block;
  }
  return block;
};

const namesResource = (block: unknown): boolean => isObject(block) && (block['type'] === 'resource_link' || block['type'] === 'resource');

/** A content array (or a single block, as in prompt messages) with its resource URIs mapped; the same value when it has none. */
const rewriteContent = (content: unknown, map: UriMap): unknown => {
  if (Array.isArray(content)) return content.some(namesResource) ? content.map((block: unknown) => rewriteBlock(block, map)) : content;
  return rewriteBlock(content, map);
};

/** `_meta` with the MCP Apps UI resource mapped, in both spellings; the same value when it has none. */
export const rewriteMeta = (meta: unknown, map: UriMap): unknown => {
  if (!isObject(meta)) return meta;
  const ui = meta['ui'];
  const nested = isObject(ui) && typeof ui['resourceUri'] === 'string' ? ui['resourceUri'] : undefined;
  const flat = typeof meta[FLAT_UI_KEY] === 'string' ? meta[FLAT_UI_KEY] : undefined;
  if (nested === undefined && flat === undefined) return meta;
  return {
    ...meta,
    ...(nested === undefined ? {} : { ui: { ...(ui as Json), resourceUri: map(nested) } }),
    ...(flat === undefined ? {} : { [FLAT_UI_KEY]: map(flat) }),
  };
};

/** Replaces `key` of `value` when `rewrite` changed it; the same object otherwise. */
const withRewritten = <T>(value: T, key: string, rewrite: (item: unknown) => unknown): T => {
  if (!isObject(value) || value[key] === undefined) return value;
  const before = value[key];
  const after = rewrite(before);
  return after === before ? value : ({ ...value, [key]: after } as T);
};

/** A tool definition (tools/list) with its UI resource mapped. */
export const rewriteTool = <T>(tool: T, map: UriMap | undefined): T =>
  map === undefined ? tool : withRewritten(tool, '_meta', (meta) => rewriteMeta(meta, map));

/**
 * A tools/call result: resource links and embedded resources in `content`, and the UI resource in
 * `_meta`. Cheap when there is nothing to map: `content` is only copied when a block is a
 * `resource_link` or `resource`, `_meta` only looked at when present.
 */
export const rewriteToolResult = <T>(result: T, map: UriMap | undefined): T => {
  if (map === undefined) return result;
  const content = withRewritten(result, 'content', (items) => rewriteContent(items, map));
  return withRewritten(content, '_meta', (meta) => rewriteMeta(meta, map));
};

/** A prompts/get result: resource links and embedded resources in each message's content. */
export const rewritePromptResult = <T>(result: T, map: UriMap | undefined): T => {
  if (map === undefined) return result;
  return withRewritten(result, 'messages', (messages) => {
    if (!Array.isArray(messages)) return messages;
    const mapped = messages.map((message: unknown) => withRewritten(message, 'content', (content) => rewriteContent(content, map)));
    return mapped.some((message, index) => message !== messages[index]) ? mapped : messages;
  });
};

/** A resources/read result: each content's `uri`, so links between contents stay resolvable. */
export const rewriteReadResult = <T>(result: T, map: UriMap | undefined): T => {
  if (map === undefined) return result;
  return withRewritten(result, 'contents', (contents) =>
    Array.isArray(contents)
      ? contents.map((item: unknown) => (isObject(item) && typeof item['uri'] === 'string' ? { ...item, uri: map(item['uri']) } : item))
      : contents,
  );
};
