#!/usr/bin/env node
/**
 * A stdio MCP server (2025-11-25, plain JSON-RPC lines) with a huge catalog: `--tools` tools (default
 * 100,000), each with a realistic description and input schema (~700 bytes), listed in pages of
 * `--page-size` (0: all in one answer) with `nextCursor`. It logs on stderr how many pages it was
 * asked for (`listed page <n>`), so a test can tell the gateway stopped asking. A call to any tool
 * answers with the tool's name.
 *
 *   node huge-catalog.mjs [--tools 100000] [--page-size 1000]
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: { tools: { type: 'string', default: '100000' }, 'page-size': { type: 'string', default: '1000' } },
});
const count = Number(options.tools);
const pageSize = Number(options['page-size']) || count;

const areas = ['issues', 'pulls', 'repos', 'actions', 'releases', 'gists', 'teams', 'projects'];
const verbs = ['list', 'get', 'create', 'update', 'delete', 'search', 'archive', 'sync'];

/** Tool number `index`: a name, a description and an input schema like a real API wrapper's. */
const tool = (index) => {
  const area = areas[index % areas.length];
  const verb = verbs[Math.floor(index / areas.length) % verbs.length];
  return {
    name: `${verb}_${area}_${String(index).padStart(6, '0')}`,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} ${area} in a repository (operation ${index}). Needs the owner and the repository name; filters by state and labels, sorts by date, and returns at most per_page items of the page asked for.`,
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'The account owner of the repository (not case sensitive).' },
        repo: { type: 'string', description: 'The name of the repository without the .git extension.' },
        state: { type: 'string', enum: ['open', 'closed', 'all'], description: 'Which items to return.' },
        labels: { type: 'array', items: { type: 'string' }, description: 'Only items with all these labels.' },
        sort: { type: 'string', enum: ['created', 'updated', 'comments'] },
        per_page: { type: 'integer', minimum: 1, maximum: 100, default: 30 },
        page: { type: 'integer', minimum: 1, default: 1 },
      },
      required: ['owner', 'repo'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: verb === 'list' || verb === 'get' || verb === 'search' },
  };
};

const send = (message) =>
  new Promise((resolve) => {
    if (process.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
    else process.stdout.once('drain', resolve);
  });

let pagesListed = 0;

/** One page of tools from `cursor` (an index, as text), with the next page's cursor while tools remain. */
const page = (cursor) => {
  const start = cursor === undefined ? 0 : Number(cursor);
  const end = Math.min(count, start + pageSize);
  const tools = [];
  for (let index = start; index < end; index++) tools.push(tool(index));
  pagesListed++;
  process.stderr.write(`listed page ${pagesListed} (tools ${start}..${end - 1})\n`);
  return end < count ? { tools, nextCursor: String(end) } : { tools };
};

/** The answer's `result`, or its `error` for a method this server does not have. */
const answer = ({ method, params }) => {
  switch (method) {
    case 'initialize':
      return {
        result: {
          protocolVersion: params.protocolVersion,
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: 'huge-catalog', version: '1.0.0' },
        },
      };
    case 'tools/list':
      return { result: page(params?.cursor) };
    case 'tools/call':
      return { result: { content: [{ type: 'text', text: `called ${params.name}` }] } };
    case 'ping':
      return { result: {} };
    default:
      return { error: { code: -32601, message: `Method not found: ${method}` } };
  }
};

// One request at a time, in order: a page is written whole before the next answer.
let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  queue = queue.then(() => send({ jsonrpc: '2.0', id: message.id, ...answer(message) }));
});
