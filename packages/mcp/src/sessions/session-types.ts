import type { Cluster, Logger, SessionEvent, SessionRecord } from '@promptyard/core';
import type { ClusterWire } from '../cluster/cluster-wire.js';
import type { ServerSdk } from '../sdk.js';
import type { McpServerBlueprint } from '../server/blueprint.js';
import type { LegacySession, SessionTable } from './session-table.js';

export interface ClusterSession extends LegacySession {
  record: SessionRecord;
  /** What the transport sends, routed through the cluster. */
  readonly wire: ClusterWire;
  touchedAt: number;
  /** Session events held while a resumed GET stream replays (delivered when it is live). */
  held?: SessionEvent[];
}

export interface LegacySessionsOptions {
  readonly sdk: typeof ServerSdk;
  readonly blueprint: McpServerBlueprint;
  readonly logger: Logger;
  readonly maxSessions: number;
  readonly sessionIdleMs: number;
  readonly maxBodyBytes: number;
  /** Shared with the other replicas: records, event streams, answers routed to the node that asked. */
  readonly cluster?: Cluster | undefined;
  /** Hears of every session opened, used or closed on this node (the endpoint's list of clients). */
  readonly onChange?: (() => void) | undefined;
}

/** What the session modules share: the options and the sessions this node holds. */
export interface SessionsContext extends LegacySessionsOptions {
  readonly table: SessionTable;
}

/** A request made inside this process to a session's transport, as its client would send it. */
export const internalRequest = (sessionId: string | undefined, body: unknown): Request =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    },
    body: JSON.stringify(body),
  });
