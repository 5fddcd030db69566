/**
 * The console's sign-in: the token typed into the form is checked as the HTTP endpoint checks a bearer
 * token — the static `[transport] auth_token` (compared in constant time), else, with `[auth]`, an
 * access token the authenticator accepts — and the caller's role is decided from `[console] admins`.
 */
import type { Authenticator, Identity } from '@promptyard/core';
import type { PolicyRule } from '@promptyard/auth';
import { roleOf } from './roles.js';
import { sameSecret } from './security.js';
import type { Role } from './sessions.js';

export interface SignInOptions {
  readonly authToken: string | undefined;
  readonly authenticator: Authenticator | undefined;
  /** The endpoint's URL (the OAuth resource when `[auth]` names no audience); known once it is bound. */
  readonly resource: () => string;
  readonly admins: readonly PolicyRule['when'][];
}

export type SignInOutcome =
  | {
      readonly ok: true;
      readonly subject: string;
      readonly role: Role;
      /** When the access token expires (epoch ms): the session ends then too. */
      readonly expiresAt?: number;
      /** The provider's ID token, when signed in through it: the hint for signing out there too. */
      readonly idToken?: string;
    }
  | { readonly ok: false; readonly message: string };

const staticIdentity: Identity = { subject: 'server-token', clientId: undefined, scopes: [], groups: [], claims: {} };

/** Who the token signs in as, or why it does not (in words for the person at the form). */
export const createSignIn =
  (options: SignInOptions) =>
  async (token: string): Promise<SignInOutcome> => {
    const { authToken, authenticator, admins } = options;
    const given = token.trim();
    if (given === '') return { ok: false, message: 'Enter a token.' };
    if (sameSecret(given, authToken)) return { ok: true, subject: staticIdentity.subject, role: roleOf(staticIdentity, true, admins) };
    if (authenticator === undefined) return { ok: false, message: "That token is not the gateway's token ([transport] auth_token)." };
    const outcome = await authenticator.authenticate(`Bearer ${given}`, authenticator.audience ?? options.resource());
    if (!outcome.ok) return { ok: false, message: `The token was refused: ${outcome.description ?? 'it is not valid here'}.` };
    const { identity, expiresAt } = outcome;
    return {
      ok: true,
      subject: identity.subject,
      role: roleOf(identity, false, admins),
      ...(expiresAt === undefined ? {} : { expiresAt: expiresAt * 1000 }),
    };
  };
