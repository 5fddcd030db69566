import type { CallContext } from '../calls/call-context.js';
import { argumentNames, promptArgumentLabels } from '../routes/catalog-search.js';
import type { CatalogSearch } from '../routes/catalog-search.js';
import type { CallToolResult, Prompt, Tool } from '../sdk/upstream-types.js';
import { allowedOf, stringArg, text, unknownServer } from './caller-view.js';
import type { ItemKind, MetaToolHost } from './caller-view.js';

const pageSize = 100;

/** The first sentence (or 120 characters) of a description: enough to choose, cheap to list. */
export const summarize = (description: string | undefined): string => {
  if (description === undefined) return '';
  const flat = description.replace(/\s+/g, ' ').trim();
  const sentence = /^(.{20,}?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length > 120 ? `${sentence.slice(0, 117)}…` : sentence;
};

const offsetOf = (cursor: string | undefined): number => {
  if (cursor === undefined) return 0;
  const value = Number.parseInt(cursor, 10);
  return Number.isFinite(value) && value >= 0 ? value : 0;
};

export const toolLine = (tool: Tool): string => {
  const args = argumentNames(tool);
  const summary = summarize(tool.description);
  return `${tool.name}${args.length > 0 ? `(${args.join(', ')})` : '()'}${summary === '' ? '' : ` — ${summary}`}`;
};

export const promptLine = (prompt: Prompt): string => {
  const args = promptArgumentLabels(prompt);
  const summary = summarize(prompt.description);
  return `${prompt.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${summary === '' ? '' : ` — ${summary}`}`;
};

/** One page of lines, each server's under its `## id` heading. */
const groupedLines = <T extends { name: string }>(
  page: readonly T[],
  owner: (name: string) => string | undefined,
  line: (item: T) => string,
) => {
  const lines: string[] = [];
  let current: string | undefined;
  for (const item of page) {
    const id = owner(item.name) ?? '?';
    if (id !== current) {
      lines.push(`## ${id}`);
      current = id;
    }
    lines.push(line(item));
  }
  return lines;
};

/** catalog_tools / catalog_prompts: one line per item, grouped by server, a page at a time. */
export const catalog = <T extends { name: string }>(
  host: MetaToolHost,
  kind: ItemKind,
  items: readonly T[],
  owner: (name: string) => string | undefined,
  line: (item: T) => string,
  args: Record<string, unknown>,
  context: CallContext,
): CallToolResult => {
  const refused = unknownServer(host, args, context);
  if (refused !== undefined) return refused;
  const server = stringArg(args, 'server');
  const visible = allowedOf(kind, items, context);
  const filtered = server === undefined ? visible : visible.filter((item) => owner(item.name) === server);
  const offset = offsetOf(stringArg(args, 'cursor'));
  const lines = groupedLines(filtered.slice(offset, offset + pageSize), owner, line);
  const next = offset + pageSize < filtered.length ? `\n\nMore: call again with cursor "${offset + pageSize}".` : '';
  // Under a policy, only the servers whose items the caller may see are counted.
  const servers = context.access === undefined ? host.backendIds().length : new Set(visible.map((item) => owner(item.name))).size;
  const header = `${filtered.length} ${kind}${server === undefined ? ` from ${servers} server${servers === 1 ? '' : 's'}` : ` from ${server}`}${offset > 0 ? `, from #${offset + 1}` : ''}.`;
  const use = kind === 'tools' ? 'describe_tool gives a schema; call_tool runs one.' : 'describe_prompt gives the arguments.';
  return text(`${header} ${use}\n\n${lines.join('\n')}${next}`);
};

/** search_tools / search_prompts: the best matches as compact cards. */
export const search = (
  host: MetaToolHost,
  catalogSearch: CatalogSearch,
  kind: ItemKind,
  args: Record<string, unknown>,
  context: CallContext,
): CallToolResult => {
  const query = stringArg(args, 'query');
  if (query === undefined) return text('Give a query: words from the name or description, e.g. "create issue".', true);
  const refused = unknownServer(host, args, context);
  if (refused !== undefined) return refused;
  const server = stringArg(args, 'server');
  const limitValue = typeof args['limit'] === 'number' ? args['limit'] : 10;
  const limit = Math.max(1, Math.min(50, Math.floor(limitValue)));
  const options = { limit, ...(server === undefined ? {} : { server }) };
  const found = kind === 'tools' ? catalogSearch.tools(query, options) : catalogSearch.prompts(query, options);
  const hits = allowedOf(kind, found, context);
  if (hits.length === 0) return text(`No ${kind} match "${query}". catalog_${kind} lists them all.`);
  const lines = hits.map(
    (hit) =>
      `${hit.name}${hit.arguments.length > 0 ? `(${hit.arguments.join(', ')})` : ''} [${hit.server}]${hit.description === undefined ? '' : ` — ${summarize(hit.description)}`}`,
  );
  return text(`${hits.length} ${kind} for "${query}":\n${lines.join('\n')}`);
};
