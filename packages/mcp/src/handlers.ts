import type { AccessKind, AccessPolicy, AuditTrail, Identity, Logger, SkillTree } from '@promptyard/core';
import type { TraceContext } from './telemetry/tracing-types.js';

/**
 * What a Promptyard MCP server answers, free of the SDK: promptyard-server describes its catalogs
 * this way (`createCatalogHandlers`), the gateway its router. `createMcpServerBlueprint` turns one
 * description into SDK servers for every transport and protocol revision — the one server adapter.
 * Results are the protocol's JSON objects; handlers throw `PromptyardError` (or `RpcError` with a
 * code of its own) and the adapter maps them to JSON-RPC errors in one place.
 */

export type JsonObject = Readonly<Record<string, unknown>>;

/** The MCP logging levels, least severe first. */
export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** The lists whose changes are announced with `notifications/<list>/list_changed`. */
export type ListKind = 'prompts' | 'tools' | 'resources';

/**
 * A client, as far as requests back to it go (sampling, elicitation, roots). A capability the client
 * did not declare, or cannot take on this connection (a 2026-07-28 stateless request), is absent.
 */
export interface ClientPeer {
  readonly label: string;
  /** The downstream connection (stdio, a 2025 session, or one stateless request); one object per connection. */
  readonly session: object;
  readonly sampling?: ((params: JsonObject) => Promise<JsonObject>) | undefined;
  readonly elicitation?: ((params: JsonObject) => Promise<JsonObject>) | undefined;
  readonly roots?: (() => Promise<JsonObject>) | undefined;
}

export interface Progress {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/**
 * A 2026-07-28 `tools/call`, `prompts/get` or `resources/read` (multi-round requests): the client
 * takes `input_required` results, and a retry carries what answers the previous one. A handler that
 * passes a request on (a gateway to a 2026-07-28 backend) passes these on and returns the backend's
 * `input_required` result as is; the adapter carries the backend's `requestState` inside its own.
 */
export interface MultiRoundInput {
  /** The client's answers to the previous round's `inputRequests`, by key. */
  readonly inputResponses?: JsonObject | undefined;
  /** The previous `input_required` result's `requestState`, as the handler returned it. */
  readonly requestState?: string | undefined;
  /** What the client can answer (its envelope's capabilities): a backend asked on its behalf asks only that. */
  readonly clientCapabilities?: JsonObject | undefined;
}

/** One request's context: who asked, cancellation, progress to report. */
export interface RequestContext {
  readonly signal: AbortSignal;
  /** The client of this request, able to answer requests while it waits. */
  readonly client: ClientPeer;
  /** The live connection (stdio or a 2025 session) the request came on, for requests outside any call. */
  readonly connection: ClientPeer | undefined;
  readonly progressToken?: string | number | undefined;
  readonly onProgress?: ((progress: Progress) => void) | undefined;
  /** The request's `_meta` other than its progress token, to pass on. */
  readonly meta?: JsonObject | undefined;
  /** Present on a 2026-07-28 multi-round request: the client takes `input_required` results. */
  readonly multiRound?: MultiRoundInput | undefined;
  /** The authenticated caller over HTTP (an OAuth access token or the server token); absent on stdio and without auth. */
  readonly identity?: Identity | undefined;
  /** The `[[policy]]` as it applies to this request's caller; absent when no policy governs it. */
  readonly access?: CallerAccess | undefined;
  /** With traces on: the context of the request's span, the parent of what the handler does on its behalf. */
  readonly trace?: TraceContext | undefined;
}

/**
 * One caller's `[[policy]]`, for a handler that reaches items on the caller's behalf beyond the one
 * the request names (the gateway's `call_tool`, `catalog_tools`, …): the adapter checks only that one.
 */
export interface CallerAccess {
  /** Whether the caller may use the item (no audit line: for lists and search results). */
  allows(kind: AccessKind, name: string): boolean;
  /**
   * Refuses what the caller may not use, as an unknown name is refused, and writes the decision's audit
   * line either way (a refusal's with the digest of `args`, a call's arguments).
   */
  check(kind: AccessKind, name: string, args?: Readonly<Record<string, unknown>>): void;
}

/** A page of a list as JSON text: `items` is the JSON of its items array, made once and kept. */
export interface SerializedListPage {
  readonly items: string;
  readonly nextCursor?: string | undefined;
}

/**
 * A relay's reply may carry its own serialization under this key (the whole message as one line of
 * JSON, without the newline): a transport that writes text writes it as is instead of serializing the
 * object, which stays a complete message for everything else (metrics, traces, other transports).
 */
export const serializedReply: unique symbol = Symbol.for('promptyard.serialized-reply');

export interface ListPage {
  readonly items: readonly JsonObject[];
  readonly nextCursor?: string | undefined;
}

/**
 * A list answers at once, or later: the gateway holds its first lists while servers are still
 * starting (`[gateway] startup_wait_ms`). A page returned as is takes no extra turn.
 */
export type ListAnswer = ListPage | Promise<ListPage>;

export interface CompleteParams {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> | undefined } | undefined;
}

/** A log record for clients: sent as `notifications/message` to live connections at or above their level. */
export interface ClientLogRecord {
  readonly level: McpLogLevel;
  readonly logger?: string | undefined;
  readonly data: unknown;
}

/**
 * The hot path, on every transport: a proxy sees each message a client sends on one connection before
 * the SDK does, and answers a `tools/call` by relaying JSON-RPC. `open` starts a channel for one
 * downstream connection (stdio, a 2025-11-25 HTTP session, or one 2026-07-28 request) whose client is
 * `client`; the channel's `offer` returns `true` when it took the message, and `reply` answers it.
 */
export interface McpRelay {
  /** The request methods the relay may take (it declines the rest); their `notifications/cancelled` follow them. */
  readonly methods: readonly string[];
  open(client: ClientPeer | undefined): RelayChannel;
}

export interface RelayChannel {
  /** `trace`, with traces on: the context of the call's span, asked for once the channel takes the call. */
  offer(message: JsonObject, reply: (message: JsonObject) => void, trace?: () => TraceContext): boolean;
  /** The connection ended: calls still relayed on it are cancelled. */
  close(): void;
}

/** A skill file's content: text, or bytes (sent as a base64 `blob`). */
export type SkillContent =
  { readonly text: string; readonly mimeType?: string } | { readonly bytes: Uint8Array; readonly mimeType?: string };

/**
 * Skills the server serves through the skills extension (`io.modelcontextprotocol/skills`). A tree of
 * skill folders is made into a catalog by the adapter (digests, sizes, frontmatter) and rebuilt on
 * `onChanged`; a source (a gateway's aggregate) answers with skill entries of its own.
 */
export type McpSkills =
  | {
      readonly tree: SkillTree;
      /** The tree's files changed: rebuild, and announce the change when anything did. */
      onChanged(listener: () => void): void;
      /** Keys added to a skill's `_meta` in `skills/list` and `skills/get` (where a git library's skill comes from), by skill folder name. */
      readonly metaOf?: ((skill: string) => Readonly<Record<string, unknown>> | undefined) | undefined;
    }
  | {
      readonly source: {
        /** A page of `skills/list` entries (`uri`, `frontmatter`, `resources`). */
        list(cursor: string | undefined): Promise<{ readonly skills: readonly JsonObject[]; readonly nextCursor?: string }>;
        /** The entry whose `SKILL.md` is `uri`; `undefined` when none is served. */
        get(uri: string): Promise<JsonObject | undefined>;
        read(uri: string): Promise<SkillContent | undefined>;
        /** The children of a skill directory; `undefined` when `uri` is not one. */
        readDirectory(
          uri: string,
          cursor: string | undefined,
        ): Promise<{ readonly resources: readonly JsonObject[]; readonly nextCursor?: string } | undefined>;
        /** Each skill's `SKILL.md`, for `resources/list`. */
        listResources(): Promise<JsonObject[]>;
      };
      /** The source's skills changed. */
      onChanged(listener: () => void): void;
    };

/**
 * `[[policy]]` over HTTP callers: the adapter filters every list for the caller (no denied item is
 * named), refuses a call outside the caller's policy as it refuses an unknown name, and writes one
 * audit line per call decision. Callers without an identity (stdio, no auth) are the local user: the
 * policy does not apply to them.
 */
export interface McpAccess {
  readonly policy: AccessPolicy;
  /** Where call decisions go, one line each: a logger clients do not hear (other callers' decisions are not theirs to read). */
  readonly audit: Logger;
  /** The audit trail (`[audit]`): a refused call is recorded there as `denied`, besides its line in `audit`. */
  readonly trail?: AuditTrail | undefined;
  /** The profile the endpoint serves, as the trail names it; `default` when absent. */
  readonly profile?: string | undefined;
  /** The gateway: the server a tool, prompt, resource (by URI) or skill comes from; `undefined` for its own. */
  serverOf?(kind: AccessKind, name: string): string | undefined;
}

export interface McpHandlers {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string | undefined;
  readonly logger: Logger;
  readonly prompts: {
    /** `caller`: the authenticated HTTP caller, when there is one (a policy may answer each caller its own list). */
    list(cursor: string | undefined, caller?: Identity): ListAnswer;
    get(name: string, args: Readonly<Record<string, string>> | undefined, context: RequestContext): Promise<JsonObject>;
    /**
     * `get` reads nothing of its context but `signal`: it asks the client nothing, reports no progress
     * and passes no `_meta` on. The adapter then answers a plain 2025-era `prompts/get` on stdio
     * without the SDK's per-request machinery (`createPromptRelay`).
     */
    readonly getNeedsSignalOnly?: boolean;
    /**
     * The page `list(cursor)` answers a caller without an identity, serialized; present when the
     * handlers keep serialized pages. The adapter's stdio fast path writes it as is.
     */
    serializedPage?(cursor: string | undefined): SerializedListPage;
  };
  /** Absent: the server declares no `tools` capability. */
  readonly tools?: {
    list(cursor: string | undefined, caller?: Identity): ListAnswer;
    /** Failures a model should read (`BACKEND_*`, `TIMEOUT`) are turned into `isError` results by the adapter. */
    call(name: string, args: Readonly<Record<string, unknown>> | undefined, context: RequestContext): Promise<JsonObject>;
  };
  /** Absent: the server declares no `resources` capability. */
  readonly resources?: {
    /** Declared as `listChanged`; the handlers then announce changes through `onListChanged`. */
    readonly listChanged: boolean;
    list(cursor: string | undefined, caller?: Identity): ListAnswer;
    templates(cursor: string | undefined, caller?: Identity): ListAnswer;
    read(uri: string, context: RequestContext): Promise<JsonObject>;
    /** Present: the server declares `subscribe`; the adapter counts each connection's subscriptions once. */
    readonly subscriptions?: {
      subscribe(uri: string): Promise<void>;
      unsubscribe(uri: string): Promise<void>;
      onUpdated(listener: (uri: string) => void): () => void;
    };
  };
  complete(params: CompleteParams, context: RequestContext): Promise<JsonObject>;
  readonly logs: {
    /** The level a live connection hears before it sends `logging/setLevel`; everything when absent. */
    readonly defaultLevel?: McpLogLevel;
    subscribe(listener: (record: ClientLogRecord) => void): () => void;
  };
  /** A client's `logging/setLevel`, beyond the connection's own threshold (a gateway tells its servers). */
  setLogLevel?(level: McpLogLevel): Promise<void>;
  /** A client's `notifications/roots/list_changed`. */
  rootsChanged?(): void;
  onListChanged(listener: (list: ListKind) => void): () => void;
  /**
   * A digest of what a list serves, content included (a prompt's template, not only its listing),
   * equal on replicas serving the same files; absent (or `undefined` for a list): the listing's digest.
   */
  fingerprint?(list: ListKind): string | undefined;
  /** A live connection (stdio, a 2025 session) opened: its client can be asked outside any request. */
  connected?(connection: ClientPeer): void;
  /** A live connection closed: forget its client. */
  disconnected?(connection: ClientPeer): void;
  readonly relay?: McpRelay;
  /** Present: the server declares the skills extension and the `resources` capability it needs. */
  readonly skills?: McpSkills | undefined;
  /** Present: `[[policy]]` rules decide who may use what. */
  readonly access?: McpAccess | undefined;
}
