/**
 * For the binaries' `install` tests: where each client keeps its file in the Linux layout under a
 * temporary home (written out, not computed by the code under test), and the stdio entry read back
 * from it with parsers of its own — what a client would read.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

export const clientFiles: Readonly<Record<string, string>> = {
  'claude-desktop': '.config/Claude/claude_desktop_config.json',
  'claude-code': '.claude.json',
  cursor: '.cursor/mcp.json',
  vscode: '.config/Code/User/mcp.json',
  windsurf: '.codeium/windsurf/mcp_config.json',
  zed: '.config/zed/settings.json',
  continue: '.continue/config.yaml',
  codex: '.codex/config.toml',
  'gemini-cli': '.gemini/settings.json',
};

interface WrittenEntry {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The entries of a client's file, by name (undefined: the collection is missing). */
export const readClientEntries = async (home: string, client: string): Promise<Record<string, unknown> | undefined> => {
  const text = await readFile(join(home, clientFiles[client] as string), 'utf8');
  if (client === 'codex') return (parseToml(text) as { mcp_servers?: Record<string, unknown> }).mcp_servers;
  if (client === 'continue') {
    const list = (parseYaml(text) as { mcpServers?: { name: string }[] }).mcpServers;
    return list === undefined ? undefined : Object.fromEntries(list.map(({ name, ...rest }) => [name, rest]));
  }
  const key = client === 'vscode' ? 'servers' : client === 'zed' ? 'context_servers' : 'mcpServers';
  return (parseJsonc(text) as Record<string, Record<string, unknown> | undefined>)[key];
};

/** The stdio entry `name`: the command, arguments and environment a client starts. */
export const readStdioEntry = async (home: string, client: string, name: string): Promise<WrittenEntry> => {
  const entry = (await readClientEntries(home, client))?.[name] as Partial<WrittenEntry> | undefined;
  if (entry?.command === undefined) throw new Error(`no stdio entry "${name}" in ${clientFiles[client] ?? client}`);
  return { command: entry.command, args: entry.args ?? [], env: entry.env ?? {} };
};
