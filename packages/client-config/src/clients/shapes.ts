/**
 * The server being installed, as clients describe servers: a command to start (stdio) or a URL to
 * reach (Streamable HTTP) with headers — and the building blocks of each client's own entry shape.
 */
export interface StdioServer {
  readonly kind: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface HttpServer {
  readonly kind: 'http';
  readonly url: string;
  /** Headers written as given (`--header 'K: V'`). */
  readonly headers: Readonly<Record<string, string>>;
  /** `--token-env VAR`: an `Authorization: Bearer` token the client reads from $VAR when it connects. */
  readonly tokenEnv?: string;
}

export type ServerSpec = StdioServer | HttpServer;

/** `command`, `args` and (when there is one) `env`: the stdio entry most clients share. */
export const commandEntry = (server: StdioServer): Record<string, unknown> => ({
  command: server.command,
  args: [...server.args],
  ...(Object.keys(server.env).length === 0 ? {} : { env: { ...server.env } }),
});

/** The headers with the token's `Authorization` header, its variable written as `reference(VAR)`. */
export const headersOf = (server: HttpServer, reference: (variable: string) => string): Record<string, string> => ({
  ...server.headers,
  ...(server.tokenEnv === undefined ? {} : { Authorization: `Bearer ${reference(server.tokenEnv)}` }),
});

/** `{ headers }` when there are any, else nothing. */
export const headersField = (key: string, headers: Readonly<Record<string, string>>): Record<string, unknown> =>
  Object.keys(headers).length === 0 ? {} : { [key]: { ...headers } };

const headerVariable = (name: string): string => `MCP_REMOTE_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;

/**
 * A client without an HTTP form (or without a way to read a header from the environment) starts
 * the `mcp-remote` bridge instead (github.com/geelen/mcp-remote README): `npx -y mcp-remote <url>
 * --header K:${VAR}`. Each header's value goes in `env` and the argument names it, the README's
 * workaround for clients that split arguments at spaces on Windows; mcp-remote expands `${VAR}` from
 * its environment, which is the client's plus `env` — so `--token-env VAR` needs nothing written down,
 * but through the bridge $VAR must hold the whole header value, `Bearer <token>` (see `bridgeTokenNote`).
 */
export const mcpRemote = (server: HttpServer): StdioServer => {
  const args = ['-y', 'mcp-remote', server.url];
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(server.headers)) {
    const variable = headerVariable(name);
    env[variable] = value;
    args.push('--header', `${name}:\${${variable}}`);
  }
  // No space in the argument (the README's Windows workaround): $VAR holds the whole value, `Bearer <token>`.
  if (server.tokenEnv !== undefined) args.push('--header', `Authorization:\${${server.tokenEnv}}`);
  return { kind: 'stdio', command: 'npx', args, env };
};

/** What the user must know when `--token-env` goes through mcp-remote: the variable holds `Bearer <token>`, not the token alone. */
export const bridgeTokenNote = (variable: string): string =>
  `Through mcp-remote the Authorization header is $${variable} as is: set ${variable} to "Bearer <token>" (the whole value, not the token alone) in the environment the client starts from.`;
