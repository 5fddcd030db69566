import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { boundedFetch } from './bounded-fetch.js';
import type { Deviation } from './liberal-results.js';
import type { MessageLimit, OversizedMessage } from './message-bounds.js';
import { createGatewayAuth } from './oauth.js';
import type { GatewayAuth } from './oauth.js';
import { ProcessGroupTransport } from './stdio-transport.js';
import type { UpstreamPeer, UpstreamSpec } from './upstream-types.js';

/** One attempt's transport: the stdio child's pid, and whether requests' abort signals reach an HTTP transport. */
export interface OpenedTransport {
  readonly transport: Transport;
  readonly authProvider: GatewayAuth | undefined;
  pid(): number | undefined;
  /** On a 2025-era HTTP connection requests go without their abort signals (see below). */
  joinRequestSignals(join: boolean): void;
}

/** The SDK's headers for an SSE stream (Accept, the token …) plus the configured ones. */
const withHeaders = (base: ConstructorParameters<typeof Headers>[0], extra: Readonly<Record<string, string>>): Headers => {
  const headers = new Headers(base);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
};

const noPid = (): undefined => undefined;

/** The transport `spec` names: a stdio child in its own process group, Streamable HTTP, or a legacy SSE stream. */
export const openTransport = (spec: UpstreamSpec, peer: UpstreamPeer, limit: MessageLimit): OpenedTransport => {
  // Every message read from the backend, on every transport, within [limits] max_message_bytes.
  const bounds = {
    ...limit,
    oversized: (message: OversizedMessage) => peer.oversized(message),
    deviated: (deviation: Deviation) => peer.deviated(deviation),
  };
  if (spec.kind === 'stdio') {
    const stdio = new ProcessGroupTransport(spec, (line) => peer.stderr(line), bounds);
    return { transport: stdio, authProvider: undefined, pid: () => stdio.pid, joinRequestSignals: () => {} };
  }
  const authProvider =
    spec.oauth === undefined
      ? undefined
      : createGatewayAuth(spec.oauth, spec.url, {
          needsLogin: (error) => peer.needsLogin(error),
          warn: (message, reason) => peer.warn(message, reason),
        });
  const auth = authProvider === undefined ? {} : { authProvider };
  const bounded = boundedFetch(bounds);
  if (spec.kind === 'sse') {
    const transport = new SSEClientTransport(new URL(spec.url), {
      ...auth,
      requestInit: { headers: { ...spec.headers } },
      fetch: bounded,
      eventSourceInit: { fetch: (url, init) => bounded(url, { ...init, headers: withHeaders(init?.headers, spec.headers) }) },
    });
    return { transport, authProvider, pid: noPid, joinRequestSignals: () => {} };
  }
  const http = new StreamableHTTPClientTransport(new URL(spec.url), {
    ...auth,
    requestInit: { headers: { ...spec.headers } },
    // Every byte is bounded; a listen stream framed as JSON lines reaches the SDK as the SSE it reads.
    fetch: bounded,
  });
  // SDK 2.4: a request's abort signal is joined to the transport's with listeners removed only on
  // abort, so every request to an HTTP backend leaves one behind (a leak in a long-running gateway).
  // On a 2025-era connection cancellation travels as notifications/cancelled, so the request signal
  // is not needed there and is not passed; 2026-07-28 needs it (cancelling closes the stream).
  let joinRequestSignals = true;
  const send = http.send.bind(http);
  http.send = (message, sendOptions) => {
    if (joinRequestSignals || sendOptions?.requestSignal === undefined) return send(message, sendOptions);
    const { requestSignal: _dropped, ...rest } = sendOptions;
    return send(message, rest);
  };
  return {
    transport: http,
    authProvider,
    pid: noPid,
    joinRequestSignals: (join) => {
      joinRequestSignals = join;
    },
  };
};
