/**
 * Loopback fakes for `url:` tests and benchmarks (not built, not published).
 *
 * `startFakeReader`: Jina Reader (`r.jina.ai`) as documented: `GET /<target>` (raw or
 * percent-encoded), bearer auth when a key is set (a wrong one → 401 JSON error), the text framing
 * (`Title: …\n\nURL Source: …\n\nMarkdown Content:\n…`, `X-Usage-Tokens`) or, for
 * `Accept: application/json`, the `{code,status,data}` envelope; civkit JSON errors: non-http →
 * 400 ParamValidationError, localhost/private targets → 451 SecurityCompromiseError,
 * `ratelimited.test` → 429 RateLimitTriggeredError with `retryAfter` and `Retry-After`,
 * `nocontent.test` → 422 AssertionFailureError. `X-Timeout` is clamped to 180.
 *
 * `startFakeSite`: pages for local mode: `/article` (HTML with a table), `/big` (`bigBytes` of
 * HTML), `/plain`, `/image.png`, `/redirect?to=<url>`, `/loop` (redirects forever).
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeHost {
  readonly url: string;
  readonly requests: { readonly path: string; readonly headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

const listen = async (server: Server, requests: FakeHost['requests']): Promise<FakeHost> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** A civkit error body as Jina Reader sends it: `{data: null, code, name, status, message, …}`. */
const civkitError = (
  code: number,
  name: string,
  status: number,
  message: string,
  rest: Record<string, unknown> = {},
  headers = {},
): Answer => json(code, { data: null, code, name, status, message, ...rest }, headers);

/** What the reader refuses before reading: a wrong key, a missing or unsafe URL. */
const refuseRequest = (raw: string, auth: string | undefined, apiKey: string | undefined): Answer | URL => {
  if (apiKey !== undefined && auth !== undefined && auth.replace(/^Bearer\s+/i, '') !== apiKey) {
    return civkitError(401, 'AuthenticationFailedError', 40103, 'Invalid API key, please get a new one from https://jina.ai', {
      readableMessage: 'AuthenticationFailedError: Invalid API key',
    });
  }
  let target: URL;
  try {
    target = new URL(decodeURIComponent(raw));
  } catch {
    return civkitError(400, 'ParamValidationError', 40001, 'No URL provided', { readableMessage: 'ParamValidationError: No URL provided' });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return civkitError(400, 'ParamValidationError', 40001, `Invalid protocol ${target.protocol}`, {
      readableMessage: `ParamValidationError: Invalid protocol ${target.protocol}`,
    });
  }
  if (/^(localhost|127\.|10\.|192\.168\.|\[::1\])/.test(target.hostname)) {
    return civkitError(451, 'SecurityCompromiseError', 45102, `Suspicious action: Request to localhost: ${target.href}`, {
      readableMessage: `SecurityCompromiseError: Suspicious action: Request to localhost: ${target.href}`,
    });
  }
  return target;
};

/** The test hosts that fail when read: `ratelimited.test` (429) and `nocontent.test` (422). */
const failingHost = (target: URL): Answer | undefined => {
  if (target.hostname === 'ratelimited.test') {
    return civkitError(
      429,
      'RateLimitTriggeredError',
      42903,
      'Per IP rate limit exceeded (20 RPM)',
      { retryAfter: 7, retryAfterDate: new Date(Date.now() + 7000).toUTCString() },
      { 'retry-after': '7' },
    );
  }
  if (target.hostname === 'nocontent.test') {
    return civkitError(422, 'AssertionFailureError', 42206, `No content available for URL ${target.href}`, {
      readableMessage: `AssertionFailureError: No content available for URL ${target.href}`,
    });
  }
  return undefined;
};

/** The page as the reader renders it: the text framing, or the JSON envelope when asked for JSON. */
const readerPage = (target: URL, headers: IncomingHttpHeaders): Answer => {
  const timeout = Math.min(Number(headers['x-timeout'] ?? '0') || 0, 180);
  const format = String(headers['x-return-format'] ?? headers['x-respond-with'] ?? 'content');
  const content = `# ${target.hostname}\n\nThe page at ${target.href} (${format}${timeout > 0 ? `, timeout ${timeout}s` : ''}${headers['x-no-cache'] === 'true' ? ', no cache' : ''}).`;
  if (String(headers.accept ?? '').includes('json')) {
    return json(200, {
      code: 200,
      status: 20000,
      data: { title: target.hostname, description: '', url: target.href, content, usage: { tokens: 33 } },
      meta: { usage: { tokens: 33 } },
    });
  }
  return {
    status: 200,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-usage-tokens': '33' },
    body: `Title: ${target.hostname}\n\nURL Source: ${target.href}\n\nMarkdown Content:\n${content}\n`,
  };
};

export const startFakeReader = async (options: { readonly apiKey?: string } = {}): Promise<FakeHost> => {
  const requests: FakeHost['requests'] = [];
  const server = createServer((req, res) => {
    const raw = (req.url ?? '/').slice(1);
    requests.push({ path: req.url ?? '/', headers: req.headers });
    const checked = refuseRequest(raw, req.headers.authorization, options.apiKey);
    const { status, headers, body } = checked instanceof URL ? (failingHost(checked) ?? readerPage(checked, req.headers)) : checked;
    res.writeHead(status, headers);
    res.end(body);
  });
  return listen(server, requests);
};

const articleHtml = (paragraphs = 6): string =>
  `<!DOCTYPE html><html><head><title>Fake article</title></head><body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>` +
  `<article><h1>Fake article</h1>${Array.from({ length: paragraphs }, (_, index) => `<p>Paragraph ${index + 1} of a long enough article about loopback fakes, written so that Readability takes it for the main content of the page.</p>`).join('')}` +
  `<table><thead><tr><th>Service</th><th>Port</th></tr></thead><tbody><tr><td>reader</td><td>0</td></tr><tr><td>site</td><td>0</td></tr></tbody></table>` +
  `<pre><code>const x = 1;</code></pre></article><footer>Copyright nobody</footer><script>alert(1)</script></body></html>`;

export const startFakeSite = async (options: { readonly bigBytes?: number } = {}): Promise<FakeHost> => {
  const requests: FakeHost['requests'] = [];
  const big = articleHtml(Math.ceil((options.bigBytes ?? 200_000) / 140));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ path: req.url ?? '/', headers: req.headers });
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    if (url.pathname === '/article') return send(200, 'text/html; charset=utf-8', articleHtml());
    if (url.pathname === '/big') return send(200, 'text/html; charset=utf-8', big);
    if (url.pathname === '/plain') return send(200, 'text/plain; charset=utf-8', 'just text\n');
    if (url.pathname === '/image.png') return send(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    if (url.pathname === '/redirect') return send(302, 'text/plain', '', { location: url.searchParams.get('to') ?? '/' });
    if (url.pathname === '/loop') return send(302, 'text/plain', '', { location: '/loop' });
    // Never answers: a read of it can only end by cancellation or timeout.
    if (url.pathname === '/hang') return;
    send(404, 'text/html', '<h1>Not Found</h1>');
  });
  return listen(server, requests);
};
