/**
 * The filters the Jinja engine applies, and what it says of any other: Jinja2's own filters that
 * @huggingface/jinja lacks are "not supported yet"; any other name is unknown. Both fail when the
 * template loads, as Liquid's unknown filters do, not at each render.
 */

/** The filters @huggingface/jinja 0.5 applies (its own, and the string methods it accepts as filters). */
const knownFilters: ReadonlySet<string> = new Set(
  [
    ['abs', 'bool', 'capitalize', 'default', 'dictsort', 'first', 'float', 'indent', 'int', 'items', 'join', 'last', 'length', 'list'],
    ['lower', 'map', 'rejectattr', 'replace', 'reverse', 'safe', 'selectattr', 'sort', 'string', 'title', 'tojson', 'trim', 'unique'],
    ['upper', 'endswith', 'lstrip', 'rstrip', 'split', 'startswith', 'strip'],
  ].flat(),
);

/** Jinja2 3.1's built-in filters the engine does not apply yet. */
const missingJinja2Filters: ReadonlySet<string> = new Set(
  [
    ['attr', 'batch', 'center', 'filesizeformat', 'format', 'groupby', 'max', 'min'],
    ['pprint', 'random', 'reject', 'round', 'select', 'slice', 'striptags', 'sum', 'truncate', 'urlencode', 'urlize', 'wordcount'],
    ['wordwrap', 'xmlattr'],
  ].flat(),
);

/** Jinja2's filters rewritten into known ones before this check (jinja-nodes.ts). */
const rewrittenFilters: ReadonlySet<string> = new Set(['d', 'count', 'e', 'escape', 'forceescape']);

/** Why a filter cannot be applied; undefined for a known filter. */
export const unknownFilterReason = (name: string): string | undefined => {
  if (knownFilters.has(name) || rewrittenFilters.has(name)) return undefined;
  if (missingJinja2Filters.has(name)) {
    return `filter "${name}" is not supported yet: write the template without it; filters supported: ${[...knownFilters].sort().join(', ')}`;
  }
  return `unknown filter "${name}"; known filters: ${[...knownFilters].sort().join(', ')}`;
};
