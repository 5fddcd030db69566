import { fetchJson, IssuerUnavailableError } from './discovery.js';

export interface IntrospectionOptions {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly timeoutMs: number;
}

/**
 * RFC 7662: asks the issuer about an opaque token. The claims of an active token, or `undefined` when
 * the issuer says it is not active; throws `IssuerUnavailableError` when the issuer cannot answer.
 */
export const introspect = async (token: string, options: IntrospectionOptions): Promise<Record<string, unknown> | undefined> => {
  // RFC 6749 §2.3.1: client credentials are form-encoded before they are joined.
  const credentials = Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64');
  let answer: Record<string, unknown> | undefined;
  try {
    answer = await fetchJson(options.url, options.timeoutMs, {
      method: 'POST',
      headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    });
  } catch (error) {
    if (error instanceof IssuerUnavailableError) throw error;
    throw new IssuerUnavailableError(`introspection at ${options.url} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (answer === undefined)
    throw new IssuerUnavailableError(
      `introspection at ${options.url} refused this server's client credentials: check [auth] client_id and client_secret`,
    );
  return answer['active'] === true ? answer : undefined;
};
