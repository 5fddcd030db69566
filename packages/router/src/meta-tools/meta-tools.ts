import { closestNames, isPromptyardError } from '@promptyard/core';
import type { CallToolResult, Prompt, Tool } from '../sdk/upstream.js';
import { argumentNames, promptArgumentLabels } from '../routes/catalog-search.js';
import type { CatalogSearch } from '../routes/catalog-search.js';
import type { CallContext } from '../calls/call-context.js';

/** What the meta tools read of the router, and the one thing they do through it: call a tool. */
export interface MetaToolHost {
  backendIds(): string[];
  /** Every backend tool, lazy mode or not. */
  allTools(): readonly Tool[];
  toolOwner(name: string): { readonly server: string } | undefined;
  backendTool(name: string): Tool | undefined;
  listPrompts(): readonly Prompt[];
  promptOwner(name: string): { readonly server: string } | undefined;
  getPromptDefinition(name: string): Prompt | undefined;
  callTool(name: string, args: Record<string, unknown> | undefined, context: CallContext): Promise<CallToolResult>;
}

export interface MetaTool {
  readonly definition: Tool;
  call(args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
}

const metaToolNames: ReadonlySet<string> = new Set([
  'catalog_tools',
  'describe_tool',
  'search_tools',
  'call_tool',
  'catalog_prompts',
  'describe_prompt',
  'search_prompts',
]);

const pageSize = 100;
const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError ? { isError: true } : {}),
});

/** The first sentence (or 120 characters) of a description: enough to choose, cheap to list. */
export const summarize = (description: string | undefined): string => {
  if (description === undefined) return '';
  const flat = description.replace(/\s+/g, ' ').trim();
  const sentence = /^(.{20,}?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length > 120 ? `${sentence.slice(0, 117)}…` : sentence;
};

const stringArg = (args: Record<string, unknown>, key: string): string | undefined => {
  const value = args[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

const offsetOf = (cursor: string | undefined): number => {
  if (cursor === undefined) return 0;
  const value = Number.parseInt(cursor, 10);
  return Number.isFinite(value) && value >= 0 ? value : 0;
};

/**
 * Meta tools: a client that loads only these (lazy mode) still finds and calls every tool, paying for
 * a schema only when it asks for one. Cards are one line each: name, server, first sentence, argument names.
 */
export const createMetaTools = (host: MetaToolHost, catalogSearch: CatalogSearch): MetaTool[] => {
  const toolLine = (tool: Tool): string => {
    const args = argumentNames(tool);
    const summary = summarize(tool.description);
    return `${tool.name}${args.length > 0 ? `(${args.join(', ')})` : '()'}${summary === '' ? '' : ` — ${summary}`}`;
  };
  const promptLine = (prompt: Prompt): string => {
    const args = promptArgumentLabels(prompt);
    const summary = summarize(prompt.description);
    return `${prompt.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${summary === '' ? '' : ` — ${summary}`}`;
  };
  /** The servers the caller may know of: under a policy, those with a tool or prompt it may use. */
  const serverIds = (context: CallContext): string[] => {
    if (context.access === undefined) return host.backendIds();
    const owners = new Set<string | undefined>([
      ...allowedOf('tools', host.allTools(), context).map((tool) => host.toolOwner(tool.name)?.server),
      ...allowedOf('prompts', host.listPrompts(), context).map((prompt) => host.promptOwner(prompt.name)?.server),
    ]);
    return host.backendIds().filter((id) => owners.has(id));
  };
  const unknownServer = (server: string, context: CallContext): CallToolResult => {
    const ids = serverIds(context);
    const close = closestNames(server, ids);
    return text(
      `Unknown server "${server}". Servers: ${ids.join(', ') || 'none'}.${close.length > 0 ? ` Did you mean "${close[0]}"?` : ''}`,
      true,
    );
  };
  const serverFilter = (args: Record<string, unknown>): string | undefined => stringArg(args, 'server');
  /** What the caller's `[[policy]]` lets it see: the meta tools show, describe and call nothing else. */
  const allowedOf = <T extends { readonly name: string }>(
    kind: 'tools' | 'prompts',
    items: readonly T[],
    context: CallContext,
  ): readonly T[] => {
    const { access } = context;
    return access === undefined ? items : items.filter((item) => access.allows(kind === 'tools' ? 'tool' : 'prompt', item.name));
  };
  const visibleTool = (name: string, context: CallContext): Tool | undefined =>
    context.access !== undefined && !context.access.allows('tool', name) ? undefined : host.backendTool(name);
  const visiblePrompt = (name: string, context: CallContext): Prompt | undefined =>
    context.access !== undefined && !context.access.allows('prompt', name) ? undefined : host.getPromptDefinition(name);

  const catalog = <T extends { name: string }>(
    kind: 'tools' | 'prompts',
    items: readonly T[],
    owner: (name: string) => string | undefined,
    line: (item: T) => string,
    args: Record<string, unknown>,
    context: CallContext,
  ): CallToolResult => {
    const server = serverFilter(args);
    if (server !== undefined && !serverIds(context).includes(server)) return unknownServer(server, context);
    const visible = allowedOf(kind, items, context);
    const filtered = server === undefined ? visible : visible.filter((item) => owner(item.name) === server);
    const offset = offsetOf(stringArg(args, 'cursor'));
    const page = filtered.slice(offset, offset + pageSize);
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
    const next = offset + pageSize < filtered.length ? `\n\nMore: call again with cursor "${offset + pageSize}".` : '';
    // Under a policy, only the servers whose items the caller may see are counted.
    const servers = context.access === undefined ? host.backendIds().length : new Set(visible.map((item) => owner(item.name))).size;
    const header = `${filtered.length} ${kind}${server === undefined ? ` from ${servers} server${servers === 1 ? '' : 's'}` : ` from ${server}`}${offset > 0 ? `, from #${offset + 1}` : ''}.`;
    const use = kind === 'tools' ? 'describe_tool gives a schema; call_tool runs one.' : 'describe_prompt gives the arguments.';
    return text(`${header} ${use}\n\n${lines.join('\n')}${next}`);
  };

  const search = (kind: 'tools' | 'prompts', args: Record<string, unknown>, context: CallContext): CallToolResult => {
    const query = stringArg(args, 'query');
    if (query === undefined) return text('Give a query: words from the name or description, e.g. "create issue".', true);
    const server = serverFilter(args);
    if (server !== undefined && !serverIds(context).includes(server)) return unknownServer(server, context);
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

  const schema = (properties: Record<string, unknown>, required: string[] = []): Tool['inputSchema'] =>
    ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) }) as Tool['inputSchema'];
  const serverProperty = { type: 'string', description: 'Only this server (its id in the gateway config).' };
  const cursorProperty = { type: 'string', description: 'From a previous page\'s "More:" line.' };
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  return [
    {
      definition: {
        name: 'catalog_tools',
        description: 'List every tool behind this gateway, one line each (name, arguments, first sentence), grouped by server.',
        inputSchema: schema({ server: serverProperty, cursor: cursorProperty }),
        annotations: readOnly,
      },
      call: async (args, context) => catalog('tools', host.allTools(), (name) => host.toolOwner(name)?.server, toolLine, args, context),
    },
    {
      definition: {
        name: 'describe_tool',
        description: 'The full definition of one tool: description, input schema (and output schema), annotations. Use before call_tool.',
        inputSchema: schema({ name: { type: 'string', description: 'Tool name as listed by catalog_tools or search_tools.' } }, ['name']),
        annotations: readOnly,
      },
      call: async (args, context) => {
        const name = stringArg(args, 'name');
        if (name === undefined) return text('Give the tool name: describe_tool {"name": "<server>_<tool>"}.', true);
        const tool = visibleTool(name, context);
        if (tool === undefined) {
          const close = closestNames(
            name,
            allowedOf('tools', host.allTools(), context).map((candidate) => candidate.name),
          );
          return text(
            `Tool "${name}" not found.${close.length > 0 ? ` Did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''} search_tools finds tools by words.`,
            true,
          );
        }
        return text(JSON.stringify({ ...tool, server: host.toolOwner(name)?.server }, null, 2));
      },
    },
    {
      definition: {
        name: 'search_tools',
        description:
          'Find tools by words (BM25 ranking, prefix and typo tolerant) in names, descriptions and argument names. Returns compact cards.',
        inputSchema: schema(
          {
            query: { type: 'string', description: 'Words, e.g. "create github issue".' },
            limit: { type: 'number', description: 'Most results (default 10, at most 50).' },
            server: serverProperty,
          },
          ['query'],
        ),
        annotations: readOnly,
      },
      call: async (args, context) => search('tools', args, context),
    },
    {
      definition: {
        name: 'call_tool',
        description:
          "Call any tool behind this gateway by name with its arguments (see describe_tool for the schema). Returns that tool's result unchanged.",
        inputSchema: schema(
          { name: { type: 'string', description: 'Tool name.' }, arguments: { type: 'object', description: "The tool's arguments." } },
          ['name'],
        ),
      },
      call: async (args, context) => {
        const name = stringArg(args, 'name');
        if (name === undefined) return text('Give the tool name: call_tool {"name": "<server>_<tool>", "arguments": {…}}.', true);
        if (metaToolNames.has(name))
          return text(`call_tool calls the servers' tools, not the gateway's own "${name}": call it directly.`, true);
        const value = args['arguments'];
        if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
          return text('"arguments" must be an object of the tool\'s arguments.', true);
        // The target is checked (and audited) as if the caller had called it directly; a refusal is
        // this tool's error, in the words of a direct call's.
        try {
          context.access?.check('tool', name);
        } catch (error) {
          if (isPromptyardError(error)) return text(error.message, true);
          throw error;
        }
        return host.callTool(name, value as Record<string, unknown> | undefined, context);
      },
    },
    {
      definition: {
        name: 'catalog_prompts',
        description: 'List every prompt behind this gateway, one line each (name, arguments, first sentence), grouped by server.',
        inputSchema: schema({ server: serverProperty, cursor: cursorProperty }),
        annotations: readOnly,
      },
      call: async (args, context) =>
        catalog('prompts', host.listPrompts(), (name) => host.promptOwner(name)?.server, promptLine, args, context),
    },
    {
      definition: {
        name: 'describe_prompt',
        description: 'The full definition of one prompt: description and arguments.',
        inputSchema: schema({ name: { type: 'string', description: 'Prompt name as listed by catalog_prompts.' } }, ['name']),
        annotations: readOnly,
      },
      call: async (args, context) => {
        const name = stringArg(args, 'name');
        if (name === undefined) return text('Give the prompt name: describe_prompt {"name": "<server>_<prompt>"}.', true);
        const prompt = visiblePrompt(name, context);
        if (prompt === undefined) {
          const close = closestNames(
            name,
            allowedOf('prompts', host.listPrompts(), context).map((candidate) => candidate.name),
          );
          return text(
            `Prompt "${name}" not found.${close.length > 0 ? ` Did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
            true,
          );
        }
        return text(JSON.stringify({ ...prompt, server: host.promptOwner(name)?.server }, null, 2));
      },
    },
    {
      definition: {
        name: 'search_prompts',
        description: 'Find prompts by words (BM25 ranking, prefix and typo tolerant) in names, descriptions and argument names.',
        inputSchema: schema(
          {
            query: { type: 'string', description: 'Words, e.g. "code review".' },
            limit: { type: 'number', description: 'Most results (default 10, at most 50).' },
            server: serverProperty,
          },
          ['query'],
        ),
        annotations: readOnly,
      },
      call: async (args, context) => search('prompts', args, context),
    },
  ];
};
