import type { Identity } from '@promptyard/core';

const strings = (value: unknown): string[] => {
  if (typeof value === 'string') return value.split(/\s+/).filter((item) => item !== '');
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
};

/** A claim by dotted path (`realm_access.roles`), or a top-level claim whose name holds dots. */
const claimAt = (claims: Readonly<Record<string, unknown>>, path: string): unknown => {
  if (path in claims) return claims[path];
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
};

/**
 * The caller named by a token's claims: RFC 9068 names (`sub`, `client_id`, `scope`), with the
 * spellings common issuers use beside them (`azp` for the client, `scp` for scopes).
 */
export const identityOf = (claims: Readonly<Record<string, unknown>>, groupsClaim: string): Identity | undefined => {
  const clientId = [claims['client_id'], claims['azp']].find((value): value is string => typeof value === 'string' && value !== '');
  const subject = typeof claims['sub'] === 'string' && claims['sub'] !== '' ? claims['sub'] : clientId;
  if (subject === undefined) return undefined;
  const scopes = strings(claims['scope'] ?? claims['scp']);
  // Group names are matched by a later policy; a group claim in a single string is one name, not many.
  const rawGroups = claimAt(claims, groupsClaim);
  const groups = typeof rawGroups === 'string' ? [rawGroups] : strings(rawGroups);
  return { subject, clientId, scopes, groups, claims };
};

/** Whether `aud` (a string or a list) names `audience`; a trailing slash is not a difference. */
export const hasAudience = (aud: unknown, audience: string): boolean => {
  const trim = (value: string): string => value.replace(/\/$/, '');
  return strings(Array.isArray(aud) ? aud : typeof aud === 'string' ? [aud] : []).some((value) => trim(value) === trim(audience));
};
