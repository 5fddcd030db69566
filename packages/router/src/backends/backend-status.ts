import type { BackendConfig } from '../config-backend.js';
import type { LogFields } from '@promptyard/core';
import type { Era, ListChanges, UpstreamConnection } from '../sdk/upstream-types.js';
import type { BackendLists } from './backend-lists.js';
import type { OversizedStatus } from './oversize-tally.js';
import type { CallSummary } from '../calls/call-window.js';
import type { DefinitionCap } from './definition-cap.js';

export interface BackendTimings {
  readonly connectMs: number;
  readonly requestMs: number;
  readonly restartInitialMs: number;
  readonly restartMaxMs: number;
  /** 0: retry forever. */
  readonly maxRestarts: number;
  /** `[limits] max_message_bytes`: the largest message read from the backend. */
  readonly maxMessageBytes: number;
  /** `max_definitions`: the most definitions kept of each of its lists. */
  readonly definitionCap: DefinitionCap;
}

/** `needs-login`: an `auth = "oauth"` server with no token to be had without a person; no restarts until `promptyard-gateway login <id>`. */
export type BackendState = 'starting' | 'ready' | 'restarting' | 'failed' | 'needs-login' | 'disabled' | 'stopped';

export interface BackendStatus extends OversizedStatus {
  readonly id: string;
  readonly state: BackendState;
  readonly transport: BackendConfig['transport'];
  readonly era?: Era | undefined;
  /** The revision in use (`2025-11-25`, `2026-07-28` …). */
  readonly protocolVersion?: string | undefined;
  /** Why `protocol = "auto"` is on 2025-11-25 although the server offered 2026-07-28. */
  readonly protocolFallback?: string | undefined;
  /** How the gateway learns of its list changes: `stream`, `polling every N s` or `notifications` (2025-11-25). */
  readonly listChanges?: string | undefined;
  readonly server?: string | undefined;
  readonly pid?: number | undefined;
  readonly uptimeSeconds?: number | undefined;
  readonly restarts: number;
  readonly lastError?: string | undefined;
  readonly nextRetrySeconds?: number | undefined;
  readonly counts: { readonly tools: number; readonly prompts: number; readonly resources: number; readonly resourceTemplates: number };
  /** Ready, but not all it lists is served: why, one sentence per list cut to `max_definitions`. Absent: nothing held back. */
  readonly degraded?: readonly string[] | undefined;
  readonly inFlight: number;
  /** Calls ended in the last five minutes (count, failed, p50/p95 ms); absent: none. */
  readonly calls?: CallSummary | undefined;
}

export const countsOf = (lists: BackendLists): BackendStatus['counts'] => ({
  tools: lists.tools.length,
  prompts: lists.prompts.length,
  resources: lists.resources.length,
  resourceTemplates: lists.resourceTemplates.length,
});

/** `stream`, `polling every N s` (a 2026-07-28 server without a listen stream), `stream, polling every N s` (lists it does not announce) or `notifications`. */
export const listChangesText = (changes: ListChanges, pollSeconds: number | undefined): string => {
  const polling = changes.polled.length === 0 || pollSeconds === undefined ? undefined : `polling every ${pollSeconds} s`;
  if (changes.via === 'notifications') return 'notifications';
  if (changes.via === 'stream') return polling === undefined ? 'stream' : `stream, ${polling}`;
  return polling ?? 'polling';
};

/** The "server ready" log line's fields: the revision, the counts, and how list changes are learned (and why not by a stream). */
export const readyFields = (
  id: string,
  connection: UpstreamConnection,
  lists: BackendLists,
  pollSeconds: number | undefined,
): LogFields => ({
  server: id,
  era: connection.era,
  protocol: connection.protocolVersion,
  tools: lists.tools.length,
  prompts: lists.prompts.length,
  resources: lists.resources.length,
  listChanges: listChangesText(connection.listChanges, pollSeconds),
  noListenStream: connection.listChanges.reason,
  listenProbeMs: connection.listChanges.probeMs,
});

/** Why a backend cannot take a call now, and what to do about it. */
export const unavailableText = (id: string, state: BackendState, lastError: string | undefined, retryAt: number): string => {
  switch (state) {
    case 'disabled':
      return `Server "${id}" is disabled in the gateway config (enabled = false).`;
    case 'starting':
      return `Server "${id}" is still starting; try again in a moment.`;
    case 'restarting': {
      const wait = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
      return `Server "${id}" is down (${lastError ?? 'it stopped'}); the gateway restarts it${retryAt > 0 ? ` in ${wait} s` : ''}.`;
    }
    case 'needs-login':
      return `Server "${id}" needs a login: run promptyard-gateway login ${id}; the running gateway picks the new token up.`;
    case 'failed':
      return `Server "${id}" failed and will not be restarted (${lastError ?? 'unknown error'}); fix its entry in the gateway config.`;
    default:
      return `Server "${id}" is not running.`;
  }
};
