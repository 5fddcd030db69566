/**
 * The clients `install` knows: where each keeps its MCP servers on Linux, macOS and Windows, and the
 * entry shape it reads for a stdio server and for a Streamable HTTP one. Each comes with the
 * documentation it follows; when a client changes its format, this table is the one place to edit.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Bases } from './locations.js';
import { commandEntry, headersField, headersOf, mcpRemote } from './shapes.js';
import type { ServerSpec } from './shapes.js';

export type FileFormat = 'json' | 'toml' | 'yaml';

export interface ClientDefinition {
  readonly id: string;
  readonly title: string;
  readonly format: FileFormat;
  /** The user-level file in a layout. */
  readonly userFile: (bases: Bases) => string;
  /** The project-level file, relative to the project folder (`--workspace`), when the client has one. */
  readonly workspaceFile?: string;
  /** The keys leading to the collection of servers (`mcpServers`, `servers`, `context_servers` …). */
  readonly container: readonly string[];
  /** The text of a new file, when the client needs more than the servers in it. */
  readonly newFileText?: string;
  /** Why this file must not be written (checked before anything is read), or undefined. */
  readonly refuse?: (file: string) => string | undefined;
  /** The entry for `server`, in this client's shape. */
  readonly entry: (server: ServerSpec) => Record<string, unknown>;
}

/** `${env:VAR}`: Cursor, VS Code and Windsurf expand it in a server's values. */
const envColon = (variable: string): string => `\${env:${variable}}`;
/** `${VAR}`: Claude Code and Gemini CLI expand it. */
const dollarBrace = (variable: string): string => `\${${variable}}`;

/** `${{ secrets.NAME }}`: Continue reads it from ~/.continue/.env (or the hub). */
const continueSecret = (variable: string): string => `\${{ secrets.${variable} }}`;

/** The `mcpServers` shape of Claude Desktop, Cursor, Windsurf and Gemini CLI, with each one's URL key. */
const mcpServersEntry =
  (urlKey: string | undefined, reference: ((variable: string) => string) | undefined) =>
  (server: ServerSpec): Record<string, unknown> => {
    if (server.kind === 'stdio') return commandEntry(server);
    if (urlKey === undefined || (reference === undefined && server.tokenEnv !== undefined)) return commandEntry(mcpRemote(server));
    return { [urlKey]: server.url, ...headersField('headers', headersOf(server, reference ?? dollarBrace)) };
  };

/** Claude Code and VS Code: `type` says which form the entry is. */
const typedEntry =
  (reference: (variable: string) => string) =>
  (server: ServerSpec): Record<string, unknown> =>
    server.kind === 'stdio'
      ? { type: 'stdio', ...commandEntry(server) }
      : { type: 'http', url: server.url, ...headersField('headers', headersOf(server, reference)) };

export const clients: readonly ClientDefinition[] = [
  {
    // modelcontextprotocol.io/docs/develop/connect-local-servers: claude_desktop_config.json under
    // ~/Library/Application Support/Claude (macOS) and %APPDATA%\Claude (Windows); Linux builds read
    // ~/.config/Claude. Remote servers are added in the app (Connectors), not in this file: mcp-remote.
    id: 'claude-desktop',
    title: 'Claude Desktop',
    format: 'json',
    userFile: (bases) => join(bases.appData, 'Claude', 'claude_desktop_config.json'),
    container: ['mcpServers'],
    entry: mcpServersEntry(undefined, undefined),
  },
  {
    // docs.claude.com/en/docs/claude-code/mcp: user scope in ~/.claude.json, project scope in .mcp.json;
    // `type: "stdio" | "http"`, `headers`; `${VAR}` is expanded in command, args, env, url and headers.
    id: 'claude-code',
    title: 'Claude Code',
    format: 'json',
    userFile: (bases) => join(bases.home, '.claude.json'),
    workspaceFile: '.mcp.json',
    container: ['mcpServers'],
    entry: typedEntry(dollarBrace),
  },
  {
    // cursor.com/docs/context/mcp: ~/.cursor/mcp.json (global), .cursor/mcp.json (project);
    // remote servers take `url` and `headers`; `${env:NAME}` is interpolated.
    id: 'cursor',
    title: 'Cursor',
    format: 'json',
    userFile: (bases) => join(bases.home, '.cursor', 'mcp.json'),
    workspaceFile: join('.cursor', 'mcp.json'),
    container: ['mcpServers'],
    entry: mcpServersEntry('url', envColon),
  },
  {
    // code.visualstudio.com/docs/copilot/reference/mcp-configuration: mcp.json in the user profile
    // (Code/User under ~/.config, ~/Library/Application Support, %APPDATA%) or .vscode/mcp.json;
    // `servers` with `type`; predefined variables such as `${env:NAME}` are resolved.
    id: 'vscode',
    title: 'VS Code',
    format: 'json',
    userFile: (bases) => join(bases.appData, 'Code', 'User', 'mcp.json'),
    workspaceFile: join('.vscode', 'mcp.json'),
    container: ['servers'],
    entry: typedEntry(envColon),
  },
  {
    // docs.windsurf.com/windsurf/cascade/mcp: ~/.codeium/windsurf/mcp_config.json on every system;
    // remote servers take `serverUrl` and `headers`; `${env:VAR}` is interpolated.
    id: 'windsurf',
    title: 'Windsurf',
    format: 'json',
    userFile: (bases) => join(bases.home, '.codeium', 'windsurf', 'mcp_config.json'),
    container: ['mcpServers'],
    entry: mcpServersEntry('serverUrl', envColon),
  },
  {
    // zed.dev/docs/ai/mcp and zed.dev/docs/configuring-zed: settings.json (JSONC) in ~/.config/zed
    // ($XDG_CONFIG_HOME/zed on Linux, also ~/.config/zed on macOS), %APPDATA%\Zed on Windows, or
    // .zed/settings.json; `context_servers` with command/args/env or url/headers. No variable
    // expansion: a token from the environment goes through mcp-remote.
    id: 'zed',
    title: 'Zed',
    format: 'json',
    userFile: (bases) => join(bases.platform === 'win32' ? join(bases.appData, 'Zed') : join(bases.xdgConfig, 'zed'), 'settings.json'),
    workspaceFile: join('.zed', 'settings.json'),
    container: ['context_servers'],
    entry: mcpServersEntry('url', undefined),
  },
  {
    // docs.continue.dev/customize/deep-dives/mcp and /reference: ~/.continue/config.yaml (%USERPROFILE%
    // on Windows); `mcpServers` is a list of `name`d entries; remote ones are `type: streamable-http`
    // with `url` and `requestOptions.headers`; `${{ secrets.NAME }}` reads ~/.continue/.env.
    id: 'continue',
    title: 'Continue',
    format: 'yaml',
    userFile: (bases) => join(bases.home, '.continue', 'config.yaml'),
    container: ['mcpServers'],
    newFileText: 'name: Local Config\nversion: 1.0.0\nschema: v1\n',
    // Continue reads config.yaml instead of the older config.json when both exist: a new config.yaml
    // would hide every setting of a config.json.
    refuse: (file) => {
      const legacy = join(dirname(file), 'config.json');
      return existsSync(file) || !existsSync(legacy)
        ? undefined
        : `${legacy} is Continue's older format, and a new config.yaml beside it would replace it. Let Continue convert it to config.yaml (or add the entry to config.json by hand), then run the command again.`;
    },
    entry: (server) => {
      if (server.kind === 'stdio') return commandEntry(server);
      const headers = headersOf(server, continueSecret);
      return { type: 'streamable-http', url: server.url, ...(Object.keys(headers).length === 0 ? {} : { requestOptions: { headers } }) };
    },
  },
  {
    // developers.openai.com/codex/mcp and codex-rs/config (mcp_types.rs): $CODEX_HOME/config.toml,
    // default ~/.codex/config.toml, or .codex/config.toml in a trusted project; [mcp_servers.<name>]
    // with command/args/env, or url with http_headers and bearer_token_env_var (no inline token).
    id: 'codex',
    title: 'Codex',
    format: 'toml',
    userFile: (bases) => join(bases.env['CODEX_HOME'] ?? join(bases.home, '.codex'), 'config.toml'),
    workspaceFile: join('.codex', 'config.toml'),
    container: ['mcp_servers'],
    entry: (server) =>
      server.kind === 'stdio'
        ? commandEntry(server)
        : {
            url: server.url,
            ...(server.tokenEnv === undefined ? {} : { bearer_token_env_var: server.tokenEnv }),
            ...headersField('http_headers', server.headers),
          },
  },
  {
    // github.com/google-gemini/gemini-cli docs/tools/mcp-server.md: ~/.gemini/settings.json or
    // .gemini/settings.json; `mcpServers` with command/args/env, `httpUrl` (Streamable HTTP) and
    // `headers`; `$VAR` and `${VAR}` in values are expanded from the environment.
    id: 'gemini-cli',
    title: 'Gemini CLI',
    format: 'json',
    userFile: (bases) => join(bases.home, '.gemini', 'settings.json'),
    workspaceFile: join('.gemini', 'settings.json'),
    container: ['mcpServers'],
    entry: mcpServersEntry('httpUrl', dollarBrace),
  },
];

export const clientIds = clients.map((client) => client.id);
