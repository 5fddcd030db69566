/**
 * The binaries `pnpm soak` runs, each started with `--inspect=127.0.0.1:0` (the binary unchanged):
 * promptyard-server on the bundled examples (or a generated library), and promptyard-gateway in front
 * of promptyard-server over stdio. Also what the load needs from each: the names of a tool and a prompt
 * it serves, and the SDK client's own 2026-07-28 requests, which the load replays.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { killTree } from '../../apps/gateway/test/backends/spawn.js';
import type { Call, Replayed } from './churn.js';
import { inspectorUrlPattern } from './inspector.js';

export type Binary = 'server' | 'gateway';

export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  readonly inspectorUrl: string;
  stop(): void;
}

export interface Workload {
  readonly calls: readonly Call[];
  readonly stateless: readonly Replayed[];
}

const mcpUrlPattern = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/;

/** Spawns node with `args` and resolves once it printed both its debugger address and its MCP URL. */
const spawnInspected = (args: readonly string[], cwd: string): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const stop = (): void => killTree(child.pid as number);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no MCP URL and debugger address on stderr within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = mcpUrlPattern.exec(output)?.[1];
      const inspectorUrl = inspectorUrlPattern.exec(output)?.[1];
      if (url === undefined || inspectorUrl === undefined) return;
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.stderr?.resume();
      child.stdout?.resume();
      child.off('exit', onExit);
      resolve({ child, url, inspectorUrl, stop });
    };
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before serving:\n${output}`));
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });

const toml = (value: string): string => JSON.stringify(value);

/**
 * Starts `binary`. `library` is a folder of prompts to serve instead of the bundled examples; `dir`
 * holds the gateway's config file.
 */
export const startBinary = async (binary: Binary, root: string, dir: string, library: string | undefined): Promise<Started> => {
  const serverCli = join(root, 'apps/server/dist/cli.js');
  let serverConfig = join(root, 'examples/promptyard.toml');
  if (library !== undefined) {
    // The generated library with the fallback tools, as the examples serve them (search_prompts).
    serverConfig = join(dir, 'promptyard.toml');
    await writeFile(serverConfig, ['[prompts]', `folders = [${toml(library)}]`, '', '[fallback]', 'tools = true', ''].join('\n'));
  }
  const source = ['--config', serverConfig];
  if (binary === 'server') return spawnInspected([serverCli, ...source, '--transport', 'http', '--port', '0'], root);
  const config = join(dir, 'gateway.toml');
  const backendArgs = [serverCli, ...source, '--transport', 'stdio'];
  await writeFile(
    config,
    ['[servers.prompts]', `command = ${toml(process.execPath)}`, `args = [${backendArgs.map(toml).join(', ')}]`, ''].join('\n'),
  );
  return spawnInspected([join(root, 'apps/gateway/dist/cli.js'), '--config', config, '--transport', 'http', '--port', '0'], root);
};

/** A connected SDK client that records the body and headers of each request it posts. */
const recordingClient = async (url: string, modern: boolean): Promise<{ client: Client; posted: Replayed[] }> => {
  const posted: Replayed[] = [];
  const recording = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    if (init?.method === 'POST' && typeof init.body === 'string')
      posted.push({
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        body: JSON.parse(init.body) as Record<string, unknown>,
      });
    return fetch(input, init);
  };
  const client = new Client({ name: 'promptyard-soak', version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recording }));
  if (modern && client.getProtocolEra() !== 'modern') throw new Error(`${url} did not negotiate 2026-07-28`);
  return { client, posted };
};

/** What the load asks a review of: a change of ~4 KB, as a client pastes one. */
const reviewedCode = Array.from(
  { length: 60 },
  (_, line) => `+  const total${line} = items.reduce((sum, item) => sum + item.price, ${line});`,
).join('\n');

/**
 * The calls the load makes: the served tool named `…search_prompts` and prompt named `…code-review`
 * (with their gateway prefix, if any; else the first prompt listed), the prompt's first required
 * argument a ~4 KB diff, each checked with one call, and the SDK client's 2026-07-28
 * requests for the same two.
 */
export const workloadOf = async (url: string): Promise<Workload> => {
  const { client } = await recordingClient(url, false);
  const tool = (await client.listTools()).tools.find((each) => each.name.endsWith('search_prompts'))?.name;
  const { prompts } = await client.listPrompts();
  // A generated library has no code-review: its first prompt then, the diff as its first argument.
  const prompt = prompts.find((each) => each.name.endsWith('code-review')) ?? prompts[0];
  await client.close();
  const argument = prompt?.arguments?.find((each) => each.required === true)?.name ?? prompt?.arguments?.[0]?.name;
  if (tool === undefined || prompt === undefined || argument === undefined)
    throw new Error(`${url} serves no search_prompts tool or no prompt with an argument`);
  const toolParams = { name: tool, arguments: { query: 'review' } };
  const promptParams = { name: prompt.name, arguments: { [argument]: reviewedCode } };
  const modern = await recordingClient(url, true);
  const before = modern.posted.length;
  await modern.client.callTool(toolParams);
  await modern.client.getPrompt(promptParams);
  const stateless = modern.posted.slice(before);
  await modern.client.close();
  if (stateless.length !== 2) throw new Error(`expected 2 recorded 2026-07-28 requests, saw ${stateless.length}`);
  return {
    calls: [
      { method: 'tools/call', params: toolParams },
      { method: 'prompts/get', params: promptParams },
    ],
    stateless,
  };
};
