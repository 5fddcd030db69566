import { createAuthenticator } from '@promptyard/auth';
import type { Logger } from '@promptyard/core';
import type { GitLibrary } from '@promptyard/git-library';
import type { HttpEndpoint } from '@promptyard/host';
import type { HttpRoute } from '@promptyard/mcp';
import { isLoopbackHost } from '@promptyard/mcp';
import type { ResolvedConfig } from '../config.js';
import { gitWebhookRoute } from './git-serving.js';

/** `[transport]`, `[transport.rate_limit]` and `[auth]` as the HTTP endpoint's settings; undefined over stdio. */
export const httpEndpoint = (
  resolved: ResolvedConfig,
  logger: Logger,
  health: () => Readonly<Record<string, unknown>>,
  git: GitLibrary | undefined,
): HttpEndpoint | undefined => {
  const { config } = resolved;
  if (config.transport.type !== 'http') return undefined;
  const { transport } = config;
  const rateLimit = config['transport.rate_limit'];
  const rateLimited = rateLimit.enabled ?? !isLoopbackHost(transport.host);
  return {
    host: transport.host,
    port: transport.port,
    path: transport.path,
    ...(transport.allowed_hosts === undefined ? {} : { allowedHosts: transport.allowed_hosts }),
    ...(transport.allowed_origins === undefined ? {} : { allowedOrigins: transport.allowed_origins }),
    authToken: transport.auth_token,
    auth: resolved.auth === undefined ? undefined : createAuthenticator(resolved.auth, { logger: logger.child('auth') }),
    publicUrl: transport.public_url,
    maxBodyBytes: transport.max_body_bytes,
    rateLimit: rateLimited
      ? { requestsPerMinute: rateLimit.requests_per_minute, burst: rateLimit.burst, trustedProxies: rateLimit.trusted_proxies }
      : undefined,
    health,
    routes: gitRoutes(resolved, git, logger),
  };
};

/** `POST /hooks/git` when there are git libraries and a secret to check pushes with. */
const gitRoutes = (resolved: ResolvedConfig, git: GitLibrary | undefined, logger: Logger): HttpRoute[] => {
  if (git === undefined) return [];
  const { webhookSecret, webhookSecretEnv } = resolved.git;
  if (webhookSecret === undefined) {
    logger.info(`git webhook off: set ${webhookSecretEnv} to serve POST /hooks/git`);
    return [];
  }
  return [gitWebhookRoute(git, webhookSecret, logger.child('git'))];
};

/** How each common client connects to the endpoint, printed on stderr once it listens. */
export const clientConfigs = (url: string, name: string): string =>
  [
    'Connect a client:',
    `  Claude Code:     claude mcp add --transport http ${name} ${url}`,
    `  VS Code:         .vscode/mcp.json  {"servers":{"${name}":{"type":"http","url":"${url}"}}}`,
    `  Cursor:          ~/.cursor/mcp.json  {"mcpServers":{"${name}":{"url":"${url}"}}}`,
    `  Claude Desktop:  claude_desktop_config.json  {"mcpServers":{"${name}":{"command":"npx","args":["-y","mcp-remote","${url}"]}}}`,
    `  MCP Inspector:   npx @modelcontextprotocol/inspector  (Streamable HTTP, ${url})`,
  ].join('\n');
