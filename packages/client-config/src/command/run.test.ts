import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { parse as parseYaml } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runClientCommand } from './run.js';

type Platform = 'linux' | 'darwin' | 'win32';

/** Each client's file per layout, relative to the temporary home: written out here, not computed. */
const expectedFiles: Record<string, Record<Platform, string>> = {
  'claude-desktop': {
    linux: '.config/Claude/claude_desktop_config.json',
    darwin: 'Library/Application Support/Claude/claude_desktop_config.json',
    win32: 'AppData/Roaming/Claude/claude_desktop_config.json',
  },
  'claude-code': { linux: '.claude.json', darwin: '.claude.json', win32: '.claude.json' },
  cursor: { linux: '.cursor/mcp.json', darwin: '.cursor/mcp.json', win32: '.cursor/mcp.json' },
  vscode: {
    linux: '.config/Code/User/mcp.json',
    darwin: 'Library/Application Support/Code/User/mcp.json',
    win32: 'AppData/Roaming/Code/User/mcp.json',
  },
  windsurf: {
    linux: '.codeium/windsurf/mcp_config.json',
    darwin: '.codeium/windsurf/mcp_config.json',
    win32: '.codeium/windsurf/mcp_config.json',
  },
  zed: { linux: '.config/zed/settings.json', darwin: '.config/zed/settings.json', win32: 'AppData/Roaming/Zed/settings.json' },
  continue: { linux: '.continue/config.yaml', darwin: '.continue/config.yaml', win32: '.continue/config.yaml' },
  codex: { linux: '.codex/config.toml', darwin: '.codex/config.toml', win32: '.codex/config.toml' },
  'gemini-cli': { linux: '.gemini/settings.json', darwin: '.gemini/settings.json', win32: '.gemini/settings.json' },
};

/** A file each client could already have: another server, other settings, comments where the format has them. */
const seeds: Record<string, string> = {
  json: '{\n    "theme": "dark",\n    "mcpServers": {\n        "other": { "command": "other-server", "args": ["--flag"] }\n    }\n}\n',
  vscode:
    '// my servers\n{\n\t"servers": {\n\t\t// keep me\n\t\t"other": { "type": "stdio", "command": "other-server" },\n\t},\n\t"inputs": []\n}\n',
  zed: '// Zed settings\n{\n  "theme": "One Dark", // the theme\n  "context_servers": {\n    "other": { "command": "other-server", "args": [] }\n  }\n}\n',
  continue:
    'name: My Config # mine\nversion: 1.0.0\nschema: v1\n# my models\nmodels: []\nmcpServers:\n  - name: other # another server\n    command: other-server\n',
  codex:
    '# Codex settings\nmodel = "o3" # the model\n\n[mcp_servers.other]\ncommand = "other-server" # keep\nargs = ["--flag"]\n\n[profiles.fast]\nmodel = "o4-mini"\n',
};
const seedOf = (client: string): string =>
  client === 'vscode' || client === 'zed' || client === 'continue' || client === 'codex'
    ? (seeds[client] as string)
    : (seeds['json'] as string);

const readEntries = (client: string, text: string): Record<string, unknown> => {
  if (client === 'codex') return (parseToml(text) as { mcp_servers: Record<string, unknown> }).mcp_servers;
  if (client === 'continue') {
    const list = (parseYaml(text) as { mcpServers: { name: string }[] }).mcpServers;
    return Object.fromEntries(list.map(({ name, ...rest }) => [name, rest]));
  }
  const value = parseJsonc(text) as Record<string, Record<string, unknown>>;
  return value[client === 'vscode' ? 'servers' : client === 'zed' ? 'context_servers' : 'mcpServers'] ?? {};
};

let home: string;
let script: string;
let output: string[];

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'promptyard-client-config-'));
  script = join(home, 'app', 'dist', 'cli.js');
  await mkdir(dirname(script), { recursive: true });
  await writeFile(script, '');
  output = [];
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const run = (argv: readonly string[], cwd = home): Promise<number> =>
  runClientCommand(argv, {
    program: 'promptyard-server',
    packageName: '@promptyard/server',
    defaultName: 'promptyard',
    stdout: (text) => output.push(text),
    script,
    execPath: '/opt/node/bin/node',
    env: { HOME: home, USERPROFILE: home, APPDATA: join(home, 'AppData', 'Roaming') },
    cwd,
  });

const seedFile = async (path: string, text: string): Promise<void> => {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
};

describe.each(Object.keys(expectedFiles))('install %s', (client) => {
  describe.each(['linux', 'darwin', 'win32'] as const)('on %s', (platform) => {
    it('merges into the right file, keeps comments, is idempotent, and uninstall restores the file', async () => {
      const file = join(home, (expectedFiles[client] as Record<Platform, string>)[platform]);
      const original = seedOf(client);
      await seedFile(file, original);
      expect(await run(['install', client, '--platform', platform, '--config', 'prompts/promptyard.toml', '--env', 'A=b'])).toBe(0);
      const text = await readFile(file, 'utf8');
      const entries = readEntries(client, text);
      expect(Object.keys(entries).sort()).toEqual(['other', 'promptyard']);
      const entry = entries['promptyard'] as { command: string; args: string[]; env: Record<string, string> };
      expect(entry.command).toBe('/opt/node/bin/node');
      expect(entry.args).toEqual([script, '--transport', 'stdio', '--config', join(home, 'prompts', 'promptyard.toml')]);
      expect(entry.env).toEqual({ A: 'b' });
      for (const comment of original.match(/(\/\/|#)[^\n]*/g) ?? []) expect(text).toContain(comment);
      expect(await readFile(`${file}.bak`, 'utf8')).toBe(original);
      expect(output.join('')).toContain(`"promptyard" added to`);
      expect(output.join('')).toContain(`previous file kept as ${file}.bak`);

      output = [];
      const before = await stat(file);
      expect(await run(['install', client, '--platform', platform, '--config', 'prompts/promptyard.toml', '--env', 'A=b'])).toBe(0);
      expect(output.join('')).toContain('already up to date');
      expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);

      expect(await run(['uninstall', client, '--platform', platform])).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(original);
    });

    it('creates a missing file; --dry-run writes nothing', async () => {
      const file = join(home, (expectedFiles[client] as Record<Platform, string>)[platform]);
      expect(await run(['install', client, '--platform', platform, '--dry-run'])).toBe(0);
      expect(output.join('')).toContain('would be added');
      await expect(stat(file)).rejects.toThrow();
      expect(await run(['install', client, '--platform', platform, '--name', 'py'])).toBe(0);
      expect(Object.keys(readEntries(client, await readFile(file, 'utf8')))).toEqual(['py']);
      await expect(stat(`${file}.bak`)).rejects.toThrow();
    });

    it('leaves a file it cannot parse untouched', async () => {
      const file = join(home, (expectedFiles[client] as Record<Platform, string>)[platform]);
      const broken = client === 'codex' ? 'model = \n' : client === 'continue' ? 'mcpServers: [\n' : '{ "mcpServers": { \n';
      await seedFile(file, broken);
      await expect(run(['install', client, '--platform', platform])).rejects.toThrow(/is not valid (JSON|TOML|YAML) .*left untouched/);
      expect(await readFile(file, 'utf8')).toBe(broken);
      await expect(stat(`${file}.bak`)).rejects.toThrow();
    });
  });
});
