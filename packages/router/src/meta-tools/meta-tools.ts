/**
 * Meta tools: the gateway's own tools (catalog, describe, search and call), with which a client that
 * loads only these (lazy mode) still finds and calls every tool, paying for a schema only when it
 * asks for one. Cards are one line each: name, server, first sentence, argument names (`cards.ts`);
 * every answer shows only what the caller's `[[policy]]` allows (`caller-view.ts`).
 */
import type { CallContext } from '../calls/call-context.js';
import type { CatalogSearch } from '../routes/catalog-search.js';
import type { CallToolResult, Tool } from '../sdk/upstream-types.js';
import { catalog, promptLine, search, toolLine } from './cards.js';
import type { MetaToolHost } from './caller-view.js';
import { callTool, describePrompt, describeTool } from './describe-and-call.js';

export interface MetaTool {
  readonly definition: Tool;
  call(args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
}

const schema = (properties: Record<string, unknown>, required: string[] = []): Tool['inputSchema'] =>
  ({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) }) as Tool['inputSchema'];
const serverProperty = { type: 'string', description: 'Only this server (its id in the gateway config).' };
const cursorProperty = { type: 'string', description: 'From a previous page\'s "More:" line.' };
const readOnly = { readOnlyHint: true, openWorldHint: false };
const searchSchema = (example: string): Tool['inputSchema'] =>
  schema(
    {
      query: { type: 'string', description: `Words, e.g. "${example}".` },
      limit: { type: 'number', description: 'Most results (default 10, at most 50).' },
      server: serverProperty,
    },
    ['query'],
  );

const toolDefinitions = {
  catalog_tools: {
    description: 'List every tool behind this gateway, one line each (name, arguments, first sentence), grouped by server.',
    inputSchema: schema({ server: serverProperty, cursor: cursorProperty }),
    annotations: readOnly,
  },
  describe_tool: {
    description: 'The full definition of one tool: description, input schema (and output schema), annotations. Use before call_tool.',
    inputSchema: schema({ name: { type: 'string', description: 'Tool name as listed by catalog_tools or search_tools.' } }, ['name']),
    annotations: readOnly,
  },
  search_tools: {
    description:
      'Find tools by words (BM25 ranking, prefix and typo tolerant) in names, descriptions and argument names. Returns compact cards.',
    inputSchema: searchSchema('create github issue'),
    annotations: readOnly,
  },
  call_tool: {
    description:
      "Call any tool behind this gateway by name with its arguments (see describe_tool for the schema). Returns that tool's result unchanged.",
    inputSchema: schema(
      { name: { type: 'string', description: 'Tool name.' }, arguments: { type: 'object', description: "The tool's arguments." } },
      ['name'],
    ),
  },
  catalog_prompts: {
    description: 'List every prompt behind this gateway, one line each (name, arguments, first sentence), grouped by server.',
    inputSchema: schema({ server: serverProperty, cursor: cursorProperty }),
    annotations: readOnly,
  },
  describe_prompt: {
    description: 'The full definition of one prompt: description and arguments.',
    inputSchema: schema({ name: { type: 'string', description: 'Prompt name as listed by catalog_prompts.' } }, ['name']),
    annotations: readOnly,
  },
  search_prompts: {
    description: 'Find prompts by words (BM25 ranking, prefix and typo tolerant) in names, descriptions and argument names.',
    inputSchema: searchSchema('code review'),
    annotations: readOnly,
  },
} satisfies Record<string, Omit<Tool, 'name'>>;

type MetaToolName = keyof typeof toolDefinitions;

/** The meta tools' definitions, in the order tools/list shows them. */
export const metaToolDefinitions = (): Tool[] =>
  (Object.keys(toolDefinitions) as MetaToolName[]).map((name) => ({ name, ...toolDefinitions[name] }) as Tool);

/** The meta tools over `host`, in the order tools/list shows them. */
export const createMetaTools = (host: MetaToolHost, catalogSearch: CatalogSearch): MetaTool[] => {
  const calls: Record<MetaToolName, (args: Record<string, unknown>, context: CallContext) => Promise<CallToolResult> | CallToolResult> = {
    catalog_tools: (args, context) =>
      catalog(host, 'tools', host.allTools(), (name) => host.toolOwner(name)?.server, toolLine, args, context),
    describe_tool: (args, context) => describeTool(host, args, context),
    search_tools: (args, context) => search(host, catalogSearch, 'tools', args, context),
    call_tool: (args, context) => callTool(host, args, context),
    catalog_prompts: (args, context) =>
      catalog(host, 'prompts', host.listPrompts(), (name) => host.promptOwner(name)?.server, promptLine, args, context),
    describe_prompt: (args, context) => describePrompt(host, args, context),
    search_prompts: (args, context) => search(host, catalogSearch, 'prompts', args, context),
  };
  return metaToolDefinitions().map((definition) => ({
    definition,
    call: async (args, context) => calls[definition.name as MetaToolName](args, context),
  }));
};
