import { canonicalDigest, isPromptyardError, PromptyardError } from '@promptyard/core';
import type { AccessDecision, AccessKind, Identity } from '@promptyard/core';
import type { JsonObject, ListPage, McpAccess } from '../handlers.js';

/** The lists a policy filters, by the key their items sit under. */
export type ListedKey = 'prompts' | 'tools' | 'resources' | 'resourceTemplates' | 'skills';

const skillScheme = 'skill://';

/** The skill paths a `skill://` URI lies under: `skill://acme/review/SKILL.md` → acme, acme/review, acme/review/SKILL.md. */
const skillPaths = (uri: string): string[] => {
  const segments = uri
    .slice(skillScheme.length)
    .split('/')
    .filter((segment) => segment !== '');
  return segments.map((_, index) => segments.slice(0, index + 1).join('/'));
};

const notFoundCode = {
  tool: 'TOOL_NOT_FOUND',
  prompt: 'PROMPT_NOT_FOUND',
  resource: 'RESOURCE_NOT_FOUND',
  skill: 'RESOURCE_NOT_FOUND',
} as const;
const notFoundCodes: ReadonlySet<string> = new Set(Object.values(notFoundCode));

/**
 * The one answer to a name a caller may not use, and to one that does not exist: the same code and
 * words, so a refusal does not tell the caller that a denied item exists.
 */
const unavailable = (kind: AccessKind, name: string): PromptyardError =>
  new PromptyardError(
    notFoundCode[kind],
    `No ${kind} ${JSON.stringify(name)} is available to you: it does not exist, or the server's [[policy]] does not allow it for you. Ask the server's administrator if you need it.`,
  );

export interface AccessGuard {
  /** `page` as `caller` may see it; the page itself for callers the policy does not apply to. */
  filter(key: ListedKey, page: ListPage, caller: Identity | undefined): ListPage;
  /** `entries` (`skills/list`, skill resources) as `caller` may see them. */
  filterItems(key: ListedKey, entries: readonly JsonObject[], caller: Identity | undefined): JsonObject[];
  /** Whether `caller` may use the item, without an audit line (completion, which only suggests). */
  allows(kind: AccessKind, name: string, caller: Identity | undefined): boolean;
  /**
   * Refuses (throws) a call `caller` may not make; writes the decision's audit line either way. A
   * tool's or prompt's refusal is audited with the digest of its arguments `args`, never their values.
   */
  check(kind: AccessKind, name: string, caller: Identity | undefined, args?: Readonly<Record<string, unknown>>): void;
  /** A not-found failure told to a caller under the policy in the words of a refusal (its suggestions may name denied items). */
  conceal(error: unknown, kind: AccessKind, name: string, caller: Identity | undefined): unknown;
}

/**
 * `[[policy]]` at the server adapter: lists filtered per caller, calls refused and audited (a refusal
 * also goes to the audit trail, when there is one; what the policy allows is recorded by whoever
 * carries the call out, which knows how it ended).
 */
export const createAccessGuard = (access: McpAccess): AccessGuard => {
  const { policy, audit } = access;
  const decide = (caller: Identity, kind: AccessKind, name: string): AccessDecision => {
    if (kind !== 'skill' || !name.startsWith(skillScheme)) return policy.decide(caller, kind, name, access.serverOf?.(kind, name));
    // A skill file is the skill's: a deny of any folder it lies under refuses it, an allow of one admits it.
    const server = access.serverOf?.(kind, name);
    const decisions = skillPaths(name).map((path) => policy.decide(caller, 'skill', path, server));
    return (
      decisions.find((decision) => decision.explicit && !decision.allowed) ??
      decisions.find((decision) => decision.allowed) ??
      decisions[0] ??
      policy.decide(caller, 'skill', name, server)
    );
  };
  const itemOf = (key: ListedKey, item: JsonObject): readonly [AccessKind, string] => {
    switch (key) {
      case 'prompts':
        return ['prompt', String(item['name'])];
      case 'tools':
        return ['tool', String(item['name'])];
      case 'resourceTemplates':
        return ['resource', String(item['uriTemplate'])];
      default: {
        const uri = String(item['uri']);
        return [key === 'skills' || uri.startsWith(skillScheme) ? 'skill' : 'resource', uri];
      }
    }
  };
  const filterItems = (key: ListedKey, entries: readonly JsonObject[], caller: Identity | undefined): JsonObject[] => {
    if (caller === undefined) return [...entries];
    const shown = entries.filter((item) => decide(caller, ...itemOf(key, item)).allowed);
    if (shown.length < entries.length)
      audit.debug('list filtered by [[policy]]', {
        subject: caller.subject,
        client: caller.clientId,
        list: key,
        shown: shown.length,
        hidden: entries.length - shown.length,
      });
    return shown;
  };
  return {
    filter: (key, page, caller) => (caller === undefined ? page : { ...page, items: filterItems(key, page.items, caller) }),
    filterItems,
    allows: (kind, name, caller) => caller === undefined || decide(caller, kind, name).allowed,
    check: (kind, name, caller, args) => {
      if (caller === undefined) return;
      const decision = decide(caller, kind, name);
      const fields = { subject: caller.subject, client: caller.clientId, kind, name, reason: decision.reason };
      if (decision.allowed) {
        audit.info('access allowed', fields);
        return;
      }
      audit.notice('access denied', fields);
      access.trail?.record({
        decision: 'denied',
        identity: caller.subject,
        client: caller.clientId,
        profile: access.profile ?? 'default',
        kind: kind === 'skill' ? 'resource' : kind,
        name,
        server: access.serverOf?.(kind, name),
        argumentsDigest: kind === 'tool' || kind === 'prompt' ? canonicalDigest(args ?? {}) : undefined,
        reason: decision.reason,
        durationMs: 0,
      });
      throw unavailable(kind, name);
    },
    conceal: (error, kind, name, caller) =>
      caller !== undefined && isPromptyardError(error) && notFoundCodes.has(error.code) ? unavailable(kind, name) : error,
  };
};
