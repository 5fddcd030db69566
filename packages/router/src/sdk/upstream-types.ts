import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Implementation,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
import type { ProtocolChoice } from '../config-backend.js';
import type { Deviation } from './liberal-results.js';
import type { OversizedMessage } from './message-bounds.js';
import type { UpstreamOAuth } from './oauth.js';
import type { UpstreamRelay } from './relay.js';
import type { UpstreamSkills } from './upstream-skills.js';

export type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
};
export type ListName = 'tools' | 'prompts' | 'resources';
export type Era = 'legacy' | 'modern';

/** How list changes reach the gateway, and which lists nothing announces (they are re-listed as their `ttlMs` runs out). */
export interface ListChanges {
  readonly via: 'stream' | 'polling' | 'notifications';
  readonly polled: readonly ListName[];
  /** Why there is no stream, when there is none (for the log). */
  readonly reason?: string | undefined;
  /** How long connecting waited for the listen stream's acknowledgement. */
  readonly probeMs?: number | undefined;
}

/** How to reach one backend. */
export type UpstreamSpec =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly inheritEnv: boolean;
      readonly cwd?: string | undefined;
      readonly protocol: ProtocolChoice;
    }
  | {
      readonly kind: 'streamable-http' | 'sse';
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly protocol: ProtocolChoice;
      /** `auth = "oauth"`: the gateway's own token for this server (never a client's). */
      readonly oauth?: UpstreamOAuth | undefined;
    };

/** What a backend asks of its client, answered by the router (usually by asking a downstream client). */
export interface UpstreamPeer {
  sampling(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  elicitation(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  roots(): Promise<Record<string, unknown>>;
  listChanged(list: ListName): void;
  log(params: { readonly level: LoggingLevel; readonly logger?: string | undefined; readonly data: unknown }): void;
  resourceUpdated(uri: string): void;
  stderr(line: string): void;
  closed(error: Error | undefined): void;
  /** An `auth = "oauth"` server whose token cannot be had or refreshed without a person logging in. */
  needsLogin(error: Error): void;
  /** Something worth a warning that does not end the connection. */
  warn(message: string, reason: string): void;
  /** A message over `[limits] max_message_bytes` was dropped (once per message). */
  oversized(message: OversizedMessage): void;
  /** The server sent something a strict reader refuses, and it was read anyway (each time it happens). */
  deviated(deviation: Deviation): void;
}

export interface UpstreamRequestOptions {
  readonly timeoutMs: number;
  /** With traces on: the `_meta` the request carries, given the one it would (the call's trace context replaces the caller's). */
  readonly meta?: ((meta: Readonly<Record<string, unknown>> | undefined) => Record<string, unknown>) | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((progress: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined;
  /**
   * A 2026-07-28 client's multi-round request to a 2026-07-28 backend: its answers and state go along,
   * and an `input_required` result comes back as it is (the client answers it) instead of being
   * fulfilled here.
   */
  readonly multiRound?:
    | {
        readonly inputResponses?: Readonly<Record<string, unknown>> | undefined;
        readonly requestState?: string | undefined;
        readonly clientCapabilities?: Readonly<Record<string, unknown>> | undefined;
      }
    | undefined;
}

/** A list as the server gave it, and how long it said the list stays fresh (2026-07-28 `ttlMs`; undefined when it did not say). */
export interface Listed<T> {
  readonly items: T[];
  readonly ttlMs: number | undefined;
  /** The list was cut to the cap: how many it held when reading stopped, and whether pages were left unread. */
  readonly over?: ListOverCap | undefined;
}

/** A list longer than `[limits] max_definitions`: `count` items read, `more` when pages past them were not asked for. */
export interface ListOverCap {
  readonly count: number;
  readonly more: boolean;
}

export interface UpstreamConnection {
  readonly era: Era;
  /** Present for 2025-era stdio backends. */
  readonly relay: UpstreamRelay | undefined;
  readonly protocolVersion: string | undefined;
  /** Why `protocol = "auto"` settled for 2025-11-25 although the server offered 2026-07-28. */
  readonly fallbackReason: string | undefined;
  readonly pid: number | undefined;
  readonly capabilities: ServerCapabilities;
  readonly serverInfo: Implementation | undefined;
  /** Present when the server declares the skills extension. */
  readonly skills: UpstreamSkills | undefined;
  /** How list changes reach the gateway: a listen stream, polling (lists without one), or 2025-era notifications. */
  readonly listChanges: ListChanges;
  /** Each list read page by page, its first `cap` items kept; no page is asked for once more than `cap` were read. */
  listTools(timeoutMs: number, cap: number): Promise<Listed<Tool>>;
  listPrompts(timeoutMs: number, cap: number): Promise<Listed<Prompt>>;
  listResources(timeoutMs: number, cap: number): Promise<Listed<Resource>>;
  listResourceTemplates(timeoutMs: number, cap: number): Promise<Listed<ResourceTemplate>>;
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    meta: Record<string, unknown> | undefined,
    options: UpstreamRequestOptions,
  ): Promise<CallToolResult>;
  getPrompt(name: string, args: Record<string, string> | undefined, options: UpstreamRequestOptions): Promise<GetPromptResult>;
  readResource(uri: string, options: UpstreamRequestOptions): Promise<ReadResourceResult>;
  complete(params: Record<string, unknown>, options: UpstreamRequestOptions): Promise<CompleteResult>;
  subscribe(uri: string, timeoutMs: number): Promise<void>;
  unsubscribe(uri: string, timeoutMs: number): Promise<void>;
  setLoggingLevel(level: LoggingLevel, timeoutMs: number): Promise<void>;
  rootsChanged(): Promise<void>;
  close(): Promise<void>;
}
