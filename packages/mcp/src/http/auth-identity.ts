import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Identity } from '@promptyard/core';

/** The subject of a static-token caller: the token names no person. */
export const serverTokenIdentity: Identity = { subject: 'server-token', clientId: undefined, scopes: [], groups: [], claims: {} };

/** The caller's identity the auth gate put in the SDK's `authInfo`; absent on stdio and without auth. */
export const identityOfAuthInfo = (authInfo: AuthInfo | undefined): Identity | undefined =>
  authInfo?.extra?.['identity'] as Identity | undefined;
