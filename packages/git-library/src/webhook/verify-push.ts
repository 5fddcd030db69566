/**
 * `POST /hooks/git`: a push webhook from GitHub, Gitea/Forgejo or GitLab, checked against the
 * configured secret before anything in it is believed, and read into a `PushEvent` (the ref pushed,
 * the commit it points at and every URL the payload gives for the repository). `pushMatches` says
 * whether such a push concerns a source.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { GitSourceConfig, PushEvent } from '../types.js';

/** Request headers with lower-case names, as Node's `IncomingMessage.headers` has them. */
export type WebhookHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export type VerifiedPush =
  | { readonly ok: true; readonly event: PushEvent | undefined }
  | { readonly ok: false; readonly status: 401 | 400; readonly reason: string };

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
};

/** Constant-time comparison of two byte strings (unequal lengths are unequal, checked first). */
const sameBytes = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

const hmacHex = (body: Buffer, secret: string): string => createHmac('sha256', secret).update(body).digest('hex');

/** Whether `signature` (hex, any case) is the HMAC-SHA256 of `body` under `secret`. */
const signedWith = (signature: string, body: Buffer, secret: string): boolean =>
  /^[0-9a-fA-F]{64}$/.test(signature) &&
  sameBytes(Buffer.from(signature.toLowerCase(), 'utf8'), Buffer.from(hmacHex(body, secret), 'utf8'));

const unauthorized = (reason: string): VerifiedPush => ({ ok: false, status: 401, reason });
const badPayload = (reason: string): VerifiedPush => ({ ok: false, status: 400, reason });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const strings = (record: unknown, keys: readonly string[]): string[] =>
  isRecord(record) ? keys.map((key) => record[key]).filter((value): value is string => typeof value === 'string' && value !== '') : [];

/** The push of a verified payload, or the 400 saying what it lacks. */
const readPush = (provider: PushEvent['provider'], body: Buffer): VerifiedPush => {
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    return badPayload(`the ${provider} push payload is not JSON (send it with content type application/json)`);
  }
  if (!isRecord(payload) || typeof payload['ref'] !== 'string') return badPayload(`the ${provider} push payload has no "ref"`);
  const urls =
    provider === 'gitlab'
      ? [
          ...strings(payload['project'], ['git_http_url', 'git_ssh_url', 'web_url']),
          ...strings(payload['repository'], ['git_http_url', 'git_ssh_url', 'homepage']),
        ]
      : strings(payload['repository'], ['clone_url', 'ssh_url', 'git_url', 'html_url', 'url']);
  if (urls.length === 0) return badPayload(`the ${provider} push payload names no repository URL`);
  const [after] = provider === 'gitlab' ? strings(payload, ['checkout_sha', 'after']) : strings(payload, ['after']);
  // A deleted branch points at the zero id: nothing to fetch.
  const commit = after === undefined || /^0+$/.test(after) ? undefined : after;
  return { ok: true, event: { provider, ref: payload['ref'], after: commit, repositoryUrls: [...new Set(urls)] } };
};

const verifyGitLab = (headers: WebhookHeaders, body: Buffer, secret: string): VerifiedPush => {
  // GitLab does not sign its payloads: it sends the secret token configured on the hook as is, in
  // X-Gitlab-Token, so the check is that token against the secret (over TLS, as the hook's URL should be).
  const token = header(headers, 'x-gitlab-token');
  if (token === undefined)
    return unauthorized('the GitLab hook sent no X-Gitlab-Token: set its secret token to the configured webhook secret');
  // Compared as digests: equal lengths whatever was sent, so the time taken says nothing of the secret's length.
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  if (!sameBytes(digest(token), digest(secret))) {
    return unauthorized('the GitLab hook X-Gitlab-Token is not the configured webhook secret');
  }
  const event = header(headers, 'x-gitlab-event');
  return event === 'Push Hook' || event === 'Tag Push Hook' ? readPush('gitlab', body) : { ok: true, event: undefined };
};

const verifyGitea = (headers: WebhookHeaders, body: Buffer, secret: string): VerifiedPush => {
  const signature = header(headers, 'x-gitea-signature');
  if (signature === undefined)
    return unauthorized('the Gitea hook sent no X-Gitea-Signature: set its secret to the configured webhook secret');
  if (!signedWith(signature, body, secret))
    return unauthorized('the Gitea hook X-Gitea-Signature does not match the body signed with the configured secret');
  return header(headers, 'x-gitea-event') === 'push' ? readPush('gitea', body) : { ok: true, event: undefined };
};

const verifyGitHub = (headers: WebhookHeaders, body: Buffer, secret: string): VerifiedPush => {
  const signature = header(headers, 'x-hub-signature-256');
  if (signature === undefined) {
    return unauthorized(
      'the hook is not signed: expected X-Hub-Signature-256 (GitHub), X-Gitea-Signature (Gitea, Forgejo) or X-Gitlab-Token (GitLab) made with the configured secret',
    );
  }
  if (!signature.startsWith('sha256=') || !signedWith(signature.slice('sha256='.length), body, secret)) {
    return unauthorized('the X-Hub-Signature-256 does not match the body signed with the configured secret');
  }
  return header(headers, 'x-github-event') === 'push' ? readPush('github', body) : { ok: true, event: undefined };
};

/**
 * Checks a webhook request against `secret` and reads its push: `{ ok: true, event }` (event undefined
 * for a verified event that is not a push, such as GitHub's `ping`), 401 when unsigned or signed with
 * another secret (the reason never repeats what was sent), 400 when verified but unreadable.
 */
export const verifyPush = (headers: WebhookHeaders, body: Buffer, secret: string): VerifiedPush => {
  if (secret === '') return unauthorized('no webhook secret is configured, so no hook can be verified');
  if (header(headers, 'x-gitlab-event') !== undefined || header(headers, 'x-gitlab-token') !== undefined) {
    return verifyGitLab(headers, body, secret);
  }
  // Gitea and Forgejo also send GitHub's headers; their own come first.
  if (header(headers, 'x-gitea-event') !== undefined || header(headers, 'x-gitea-signature') !== undefined) {
    return verifyGitea(headers, body, secret);
  }
  return verifyGitHub(headers, body, secret);
};

/**
 * Whether `push` concerns `config`: one of the payload's repository URLs is the source's (both
 * normalized) and the ref pushed is the source's branch (`refs/heads/<ref>`; a `HEAD` source follows
 * any branch of its repository, the default one being unknown to the payload).
 */
export const pushMatches = (push: PushEvent, config: GitSourceConfig, normalizeRepositoryUrl: (url: string) => string): boolean => {
  const branchPushed = push.ref.startsWith('refs/heads/');
  const refMatches =
    config.ref === 'HEAD' ? branchPushed : push.ref === (config.ref.startsWith('refs/') ? config.ref : `refs/heads/${config.ref}`);
  if (!refMatches) return false;
  const normalize = (url: string): string | undefined => {
    try {
      return normalizeRepositoryUrl(url);
    } catch {
      return undefined;
    }
  };
  const wanted = normalize(config.url);
  return wanted !== undefined && push.repositoryUrls.some((url) => normalize(url) === wanted);
};
