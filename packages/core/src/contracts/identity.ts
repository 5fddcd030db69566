/**
 * Who is calling, once a resource server has checked their access token: the one shape every layer
 * reads (the HTTP front door sets it, request handling and a policy read it). Free of any OAuth
 * library, so a provider can look at it without one.
 */
export interface Identity {
  /** The token's `sub` (for a machine account, often its client id). */
  readonly subject: string;
  /** The OAuth client that obtained the token (`client_id`, else `azp`). */
  readonly clientId: string | undefined;
  readonly scopes: readonly string[];
  /** Group names read from the configured claim (`[auth] groups_claim`). */
  readonly groups: readonly string[];
  /** Every claim of the token (or of the introspection answer). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Why a request was refused, in RFC 6750 terms; absent `error`: no credentials were sent at all. */
export interface AuthRefusal {
  readonly ok: false;
  /** 400 bad request shape, 401 no or bad token, 403 missing scope, 503 the authorization server cannot be reached. */
  readonly status: 400 | 401 | 403 | 503;
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'temporarily_unavailable';
  /** Safe to show the client: never the token. */
  readonly description: string;
}

export type AuthOutcome = { readonly ok: true; readonly identity: Identity; readonly expiresAt: number | undefined } | AuthRefusal;

/** Checks one request's credentials for the resource at `resource` (the URL clients reach it at). */
export interface Authenticator {
  /** The authorization servers a client should get a token from (RFC 9728 `authorization_servers`). */
  readonly authorizationServers: readonly string[];
  /** Scopes every token needs (RFC 9728 `scopes_supported`, the challenge's `scope`). */
  readonly requiredScopes: readonly string[];
  /** The audience tokens must carry; absent: `resource`. */
  readonly audience: string | undefined;
  authenticate(authorization: string | undefined, resource: string): Promise<AuthOutcome>;
}

/** What a policy rules on; a gateway also rules on whole servers (`AccessPolicy.decide`'s `server`). */
export type AccessKind = 'tool' | 'prompt' | 'resource' | 'skill';

export interface AccessDecision {
  readonly allowed: boolean;
  /** Whether a rule decided (false: no rule allows the item, so it is refused by default). */
  readonly explicit: boolean;
  /** Which rule decided (`[[policy]] #2 "design"`), or why none did: for the audit line, not for the caller. */
  readonly reason: string;
}

/**
 * Who may use what (`[[policy]]`): a decision for one caller and one item — a tool, prompt or skill by
 * name, a resource by URI; `server` is the gateway server the item comes from.
 */
export interface AccessPolicy {
  decide(caller: Identity, kind: AccessKind, name: string, server?: string): AccessDecision;
  /**
   * The first `approve = true` rule that applies to the caller and covers the tool: its call must be
   * approved by a person first. A caller without identity (stdio) is matched by rules without
   * conditions only. `undefined`: no approval needed.
   */
  approval(caller: Identity | undefined, kind: AccessKind, name: string, server?: string): ApprovalRule | undefined;
  /** Changes whenever the rules change: an approval given under other rules is not reused. */
  readonly version: string;
  /**
   * Whether the caller may use a gateway profile (`[[policy]] profiles`): deny rules first, then allow
   * rules, else refused. `undefined` when no rule names profiles: every caller may use every profile.
   */
  admits(caller: Identity, profile: string): AccessDecision | undefined;
}

/** An `approve = true` rule, as the approval it asks for. */
export interface ApprovalRule {
  /** How audit lines and the question name it: `[[policy]] #2 "deploys"`. */
  readonly label: string;
  /** `approve_ttl`: how long an approval holds for the same caller, profile, tool and arguments; 0 = this call only. */
  readonly ttlMs: number;
}
