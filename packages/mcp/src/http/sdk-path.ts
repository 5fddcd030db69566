import type { ServerResponse } from 'node:http';
import type * as NodeAdapter from '@modelcontextprotocol/node';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ServerSdk } from '../sdk.js';
import type { McpServerBlueprint } from '../server/blueprint.js';
import { createLegacySessions, type LegacySessions } from '../sessions/legacy-sessions.js';
import { identityOfAuthInfo } from './auth-identity.js';
import type { HttpServeOptions } from './options.js';

/** The SDK's path behind the front: Node's request, body already parsed, to the handler of its era. */
export interface SdkPath {
  readonly serve: (req: NodeIncomingMessageLike, res: ServerResponse, parsedBody?: unknown) => Promise<void>;
  readonly sessions: LegacySessions;
  /** The 2026-07-28 handler's change notifier (`subscriptions/listen` streams). */
  readonly notify: ReturnType<typeof ServerSdk.createMcpHandler>['notify'];
  close(): Promise<void>;
}

type Fetch = (request: Request, parsedBody: unknown, authInfo: AuthInfo | undefined) => Promise<Response>;

/** The SDK's options for a request: its parsed body and caller, when there are. */
const withBody = (parsedBody: unknown, authInfo: AuthInfo | undefined) => ({
  ...(parsedBody === undefined ? {} : { parsedBody }),
  ...(authInfo === undefined ? {} : { authInfo }),
});

/** 2025-era requests: to their session, an `initialize` to a new one, anything else answered statelessly. */
const legacyPath = (sdk: typeof ServerSdk, sessions: LegacySessions, stateless: Fetch): Fetch => {
  return async (request, parsedBody, authInfo) => {
    const subject = identityOfAuthInfo(authInfo)?.subject;
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) return sessions.serve(sessionId, request, parsedBody, authInfo, subject);
    if (request.method === 'POST' && sdk.isInitializeRequest(parsedBody)) return sessions.open(request, parsedBody, authInfo, subject);
    // A 2025-era request outside any session: answer it statelessly.
    return stateless(request, parsedBody, authInfo);
  };
};

/**
 * 2025-era requests to sessions or the stateless fallback, 2026-07-28 ones to the modern handler;
 * `onSessionsChange` hears of every session opened, used or closed.
 */
export const createSdkPath = (
  sdk: typeof ServerSdk,
  node: typeof NodeAdapter,
  blueprint: McpServerBlueprint,
  options: HttpServeOptions,
  onSessionsChange?: () => void,
): SdkPath => {
  const { logger } = blueprint;
  const { cluster, maxBodyBytes } = options;
  const modern = sdk.createMcpHandler(blueprint.factory(false), {
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => logger.debug('http request rejected', { reason: error.message }),
    // In a cluster, `subscriptions/listen` streams on every node hear the changes any node announces.
    ...(cluster === undefined ? {} : { bus: cluster.bus }),
  });
  const sessions = createLegacySessions({
    sdk,
    blueprint,
    logger,
    maxSessions: options.maxSessions ?? 1000,
    sessionIdleMs: options.sessionIdleMs ?? 30 * 60_000,
    maxBodyBytes,
    cluster,
    onChange: onSessionsChange,
  });
  const statelessLegacy = sdk.legacyStatelessFallback(
    blueprint.factory(false),
    (error) => logger.debug('legacy request failed', { reason: error.message }),
    { maxRequestBodySize: maxBodyBytes },
  );
  const legacy = legacyPath(sdk, sessions, (request, parsedBody, authInfo) => statelessLegacy(request, withBody(parsedBody, authInfo)));
  const route: Fetch = async (request, parsedBody, authInfo) => {
    if (await sdk.isLegacyRequest(request, parsedBody, { maxRequestBodySize: maxBodyBytes })) return legacy(request, parsedBody, authInfo);
    return modern.fetch(request, withBody(parsedBody, authInfo));
  };
  const serve = node.toNodeHandler(
    { fetch: (request, requestOptions) => route(request, requestOptions?.parsedBody, requestOptions?.authInfo) },
    { maxRequestBodySize: maxBodyBytes, onerror: (error) => logger.error('http handler failed', { reason: error.message }) },
  );
  return { serve, sessions, notify: modern.notify, close: () => modern.close() };
};
