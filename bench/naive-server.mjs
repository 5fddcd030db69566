#!/usr/bin/env node
/**
 * The naive reference server `bench/prompts.bench.ts` measures promptyard-server against: what a
 * competent person writes in an afternoon on the MCP SDK's low-level `Server` — a folder tree of
 * Markdown prompts, YAML frontmatter read with the `yaml` package, `{{var}}` filled in by a regex,
 * a recursive `fs.watch` for `list_changed`, 100-item pages. Deliberately plain, not crippled.
 *
 *   node bench/naive-server.mjs <folder>
 */
import { watch } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { parse } from 'yaml';

const root = process.argv[2];
if (root === undefined) {
  process.stderr.write('usage: naive-server.mjs <prompts folder>\n');
  process.exit(2);
}
const pageSize = 100;

/** @type {Map<string, { name: string, description?: string, arguments: { name: string, description?: string, required?: boolean }[], body: string }>} */
const prompts = new Map();
/** Names in list order, rebuilt when a prompt is added or removed. */
let names = [];

const nameOf = (file) => relative(root, file).split(sep).join('/').replace(/\.md$/, '');

const load = async (file) => {
  const text = await readFile(file, 'utf8');
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  const meta = match === null ? {} : (parse(match[1]) ?? {});
  const name = nameOf(file);
  prompts.set(name, {
    name,
    description: typeof meta.description === 'string' ? meta.description : undefined,
    arguments: Array.isArray(meta.arguments)
      ? meta.arguments.map((arg) => ({ name: String(arg.name), description: arg.description, required: arg.required === true }))
      : [],
    body: match === null ? text : text.slice(match[0].length),
  });
};

const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.md')).map((file) => join(root, file));
await Promise.all(files.map((file) => load(file).catch((error) => process.stderr.write(`skipped ${file}: ${error.message}\n`))));
names = [...prompts.keys()].sort();

const server = new Server({ name: 'naive-prompts', version: '1.0.0' }, { capabilities: { prompts: { listChanged: true } } });

server.setRequestHandler('prompts/list', (request) => {
  const start = Number(request.params?.cursor ?? 0);
  const page = names.slice(start, start + pageSize).map((name) => {
    const prompt = prompts.get(name);
    return { name, description: prompt.description, arguments: prompt.arguments };
  });
  return start + pageSize < names.length ? { prompts: page, nextCursor: String(start + pageSize) } : { prompts: page };
});

server.setRequestHandler('prompts/get', (request) => {
  const prompt = prompts.get(request.params.name);
  if (prompt === undefined) throw new Error(`unknown prompt: ${request.params.name}`);
  const args = request.params.arguments ?? {};
  for (const arg of prompt.arguments) if (arg.required && args[arg.name] === undefined) throw new Error(`missing argument: ${arg.name}`);
  const text = prompt.body.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key) => args[key] ?? whole);
  return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
});

// The client closing stdin ends the session; the watcher would keep the process alive otherwise.
server.onclose = () => process.exit(0);
await server.connect(new StdioServerTransport());

watch(root, { recursive: true }, (_event, file) => {
  if (file === null || !file.endsWith('.md')) return;
  const path = join(root, file);
  load(path)
    .catch(() => prompts.delete(nameOf(path)))
    .then(() => {
      names = [...prompts.keys()].sort();
      return server.sendPromptListChanged();
    })
    .catch(() => {});
});
