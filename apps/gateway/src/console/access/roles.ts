/**
 * Who may act in the console: the static token is an admin, and so is a caller that a `[[policy]]`
 * rule named in `[console] admins` applies to (its subjects, groups, scopes and clients, matched as
 * `[[policy]]` matches them); everyone else who signs in is a viewer.
 */
import type { Identity } from '@promptyard/core';
import type { PolicyRule } from '@promptyard/auth';
import { compileGlobList } from '@promptyard/router';
import type { Role } from './sessions.js';

type Conditions = PolicyRule['when'];

/** Every condition given must hold; a list holds when one of its globs matches (as in `[[policy]]`). */
const appliesTo = (when: Conditions, caller: Identity): boolean => {
  const holds = (globs: readonly string[] | undefined, values: readonly string[]): boolean =>
    globs === undefined || values.some(compileGlobList(globs));
  return (
    holds(when.subjects, [caller.subject]) &&
    holds(when.groups, caller.groups) &&
    holds(when.scopes, caller.scopes) &&
    holds(when.clients, caller.clientId === undefined ? [] : [caller.clientId])
  );
};

/** The role of a caller who signed in; `staticToken` when the credential was `[transport] auth_token`. */
export const roleOf = (caller: Identity, staticToken: boolean, admins: readonly Conditions[]): Role =>
  staticToken || admins.some((when) => appliesTo(when, caller)) ? 'admin' : 'viewer';
