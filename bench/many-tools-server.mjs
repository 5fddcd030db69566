#!/usr/bin/env node
/**
 * A stdio MCP server with many tools, for `bench/surface.bench.ts`'s `tools/list` figures: the MCP
 * SDK's low-level `Server`, `<count>` tools named `tool_00000`… each with a short description and a
 * two-argument input schema, listed in one answer; a call echoes the tool's name.
 *
 *   node bench/many-tools-server.mjs <count>
 */
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const count = Number(process.argv[2] ?? 5000);
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: many-tools-server.mjs <count of tools, ≥ 1>\n');
  process.exit(2);
}

const tools = Array.from({ length: count }, (_, index) => ({
  name: `tool_${String(index).padStart(5, '0')}`,
  description: `Tool number ${index}: looks up an item by id and returns it with its owner.`,
  inputSchema: {
    type: 'object',
    properties: { id: { type: 'string', description: 'The item id' }, verbose: { type: 'boolean' } },
    required: ['id'],
  },
}));

const server = new Server({ name: 'many-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools }));
server.setRequestHandler('tools/call', (request) => ({ content: [{ type: 'text', text: request.params.name }] }));
await server.connect(new StdioServerTransport());
