/**
 * `[console]`: the operator console in the browser, read and checked. Who signs in as an admin is said
 * by `[[policy]]` rules named in `admins` (their subjects, groups, scopes and clients conditions);
 * everyone else who signs in with a credential the endpoint accepts is a viewer.
 */
import type { PolicyRule, PolicySectionValues } from '@promptyard/auth';
import { locateKey } from '@promptyard/core';
import type { Problem } from './server-entry.js';

export const consoleSection = {
  enabled: {
    type: 'boolean',
    default: false,
    doc: 'Serve the operator console at /console on the HTTP endpoint, behind its authentication: a sign-in form takes the static token ([transport] auth_token) or, with [auth], an access token the endpoint accepts (PROMPTYARD_CONSOLE_ENABLED).',
  },
  admins: {
    type: 'string[]',
    default: [],
    doc: 'Names of [[policy]] rules: callers a named rule applies to (by its subjects, groups, scopes and clients) are admins, who may act (restart a server); everyone else who signs in is a viewer. The static token always signs in as an admin.',
  },
  session_minutes: {
    type: 'integer',
    min: 1,
    max: 10_080,
    default: 480,
    doc: 'How long a console sign-in lasts before the browser must sign in again.',
  },
  client_id: {
    type: 'string',
    doc: "The console's client id at the [auth] issuer: the browser signs in there (authorization code with PKCE), redirected back to <public_url origin>/console/callback.",
  },
  client_secret: {
    type: 'string',
    doc: 'Its secret, for a confidential client (prefer PROMPTYARD_CONSOLE_CLIENT_SECRET); unset: a public client (PKCE alone).',
  },
  bind: {
    type: 'string',
    doc: 'Serve the console on an address of its own, host:port (127.0.0.1:9090, [::1]:9090), instead of at /console on the HTTP endpoint; it then runs whatever [transport] is, stdio included. Unset: on the endpoint.',
  },
  public_url: {
    type: 'string',
    doc: "With bind: the console's address as browsers reach it (behind a proxy, https://ops.example.com); the identity provider redirects back to <public_url>/console/callback. Unset: the bound address.",
  },
} as const;

/** `[console] bind`: where the console listens on its own. */
export interface ConsoleBind {
  readonly host: string;
  readonly port: number;
}

/** `[console]` when enabled: the conditions that make a caller an admin, and how long a session lasts. */
export interface ConsoleConfig {
  /** The `when` of each `[[policy]]` rule named in `admins`. */
  readonly admins: readonly PolicyRule['when'][];
  readonly sessionMs: number;
  /** `client_id` (and `client_secret`): browser sign-in through the `[auth]` issuer. */
  readonly client?: { readonly id: string; readonly secret?: string | undefined };
  /** `bind`: the console on an address of its own; absent: at /console on the HTTP endpoint. */
  readonly bind?: ConsoleBind;
  /** `public_url` (with `bind`): its origin as browsers reach it. */
  readonly publicUrl?: string;
}

interface ConsoleInput {
  readonly console: {
    readonly enabled: boolean;
    readonly admins: readonly string[];
    readonly session_minutes: number;
    readonly client_id?: string | undefined;
    readonly client_secret?: string | undefined;
    readonly bind?: string | undefined;
    readonly public_url?: string | undefined;
  };
  readonly transport: { readonly auth_token?: string | undefined };
  readonly auth: { readonly issuer?: string | undefined };
  readonly 'policy[]': readonly PolicySectionValues[];
}

/** `[console]` checked against the endpoint's authentication and `[[policy]]`; `undefined` when it is off. */
export const readConsole = (
  sections: ConsoleInput,
  rules: readonly PolicyRule[],
  text: string,
  problems: Problem[],
): ConsoleConfig | undefined => {
  const { enabled, admins, session_minutes: minutes, client_id: clientId, client_secret: secret } = sections.console;
  if (!enabled) return undefined;
  if (clientId !== undefined && sections.auth.issuer === undefined)
    problems.push({
      line: locateKey(text, 'console', 'client_id'),
      message: '[console] client_id signs in through the identity provider of [auth]: set [auth] issuer, or remove client_id',
    });
  if (secret !== undefined && clientId === undefined)
    problems.push({ line: locateKey(text, 'console', 'client_secret'), message: '[console] client_secret needs [console] client_id' });
  const line = locateKey(text, 'console', 'enabled');
  if ((sections.transport.auth_token ?? '') === '' && sections.auth.issuer === undefined)
    problems.push({
      line,
      message:
        '[console] needs the endpoint to authenticate its callers: set [transport] auth_token (or PROMPTYARD_TRANSPORT_AUTH_TOKEN), or [auth] issuer',
    });
  const names = sections['policy[]'].map((entry) => entry.name);
  const when: PolicyRule['when'][] = [];
  for (const name of admins) {
    const index = names.indexOf(name);
    const rule = rules[index];
    if (index < 0) {
      const known = names.filter((known) => known !== undefined);
      problems.push({
        line: locateKey(text, 'console', 'admins'),
        message: `[console] admins names ${JSON.stringify(name)}, but no [[policy]] rule has that name${known.length === 0 ? ': give the rule for your operators a name' : ` (named rules: ${known.join(', ')})`}`,
      });
    } else if (rule !== undefined) when.push(rule.when);
  }
  const client = clientId === undefined || clientId === '' ? {} : { client: { id: clientId, ...(secret === undefined ? {} : { secret }) } };
  return { admins: when, sessionMs: minutes * 60_000, ...client, ...readPlace(sections.console, text, problems) };
};

/** `host:port`, the host an IPv6 address in brackets; `undefined` when it is not one. */
export const parseBind = (value: string): ConsoleBind | undefined => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[3]);
  if (match === null || !Number.isInteger(port) || port > 65_535) return undefined;
  return { host: (match[1] ?? match[2]) as string, port };
};

/** `bind` and `public_url`: where the console listens apart, and how browsers reach it. */
const readPlace = (section: ConsoleInput['console'], text: string, problems: Problem[]): { bind?: ConsoleBind; publicUrl?: string } => {
  const { bind: value, public_url: publicUrl } = section;
  if (publicUrl !== undefined && value === undefined)
    problems.push({
      line: locateKey(text, 'console', 'public_url'),
      message: '[console] public_url goes with [console] bind: on the HTTP endpoint the console is at [transport] public_url + /console',
    });
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+\/?$/.test(publicUrl))
    problems.push({
      line: locateKey(text, 'console', 'public_url'),
      message: `[console] public_url must be an http(s) origin such as https://ops.example.com, got ${JSON.stringify(publicUrl)}`,
    });
  if (value === undefined) return {};
  const bind = parseBind(value);
  if (bind === undefined) {
    problems.push({
      line: locateKey(text, 'console', 'bind'),
      message: `[console] bind must be host:port (127.0.0.1:9090, or [::1]:9090 for IPv6; port 0 picks a free one), got ${JSON.stringify(value)}`,
    });
    return {};
  }
  return { bind, ...(publicUrl === undefined ? {} : { publicUrl: publicUrl.replace(/\/$/, '') }) };
};
