/**
 * Loopback fakes of Serper and Perplexity for tests and benchmarks (not built, not published).
 * They check requests as the real services do — path, method, headers, body fields — and answer
 * with the real response and error shapes; Perplexity also streams (`stream: true`: three content
 * chunks, a final one with the sources, `[DONE]`). Magic queries pick the behaviour:
 *
 *   fake:empty            no results / an empty answer
 *   fake:rich             (Serper) answer box, knowledge graph and people also ask
 *   fake:citations-only   (Perplexity) `citations` without `search_results`
 *   fake:many             many results with long snippets (for the size cap)
 *   fake:credits          400 "Not enough credits"
 *   fake:unauthorized     401;  fake:forbidden  403
 *   fake:rate-limit       429 with Retry-After: 1 the first time, then a normal answer
 *   fake:rate-limit-always 429 with Retry-After: 120
 *   fake:error            500;  fake:unavailable  503
 *   fake:not-json         200 with an HTML body
 *   fake:hang             never answers (timeouts and cancellation); `aborted` counts closed requests
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export interface FakeService {
  readonly url: string;
  readonly requests: FakeRequest[];
  /** Requests the client closed before an answer. */
  readonly aborted: number;
  /** Resolves when the next (or an already) aborted request is seen. */
  waitForAbort(): Promise<void>;
  close(): Promise<void>;
}

type Handler = (request: FakeRequest, res: ServerResponse, state: { hits: Map<string, number> }) => void;

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json', ...headers });
  res.end(text);
};

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const startFake = async (handler: Handler): Promise<FakeService> => {
  const requests: FakeRequest[] = [];
  const state = { hits: new Map<string, number>() };
  let aborted = 0;
  let abortWaiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) {
        aborted++;
        for (const resolve of abortWaiters) resolve();
        abortWaiters = [];
      }
    });
    readBody(req).then(
      (text) => {
        let body: unknown = text;
        if ((req.headers['content-type'] ?? '').startsWith('application/json')) {
          try {
            body = JSON.parse(text) as unknown;
          } catch {
            body = undefined;
          }
        }
        const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        requests.push(request);
        handler(request, res, state);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get aborted() {
      return aborted;
    },
    waitForAbort: () => (aborted > 0 ? Promise.resolve() : new Promise((resolve) => abortWaiters.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Shared magic behaviours; returns true when it answered. */
const magic = (
  query: string,
  res: ServerResponse,
  state: { hits: Map<string, number> },
  errors: { credits: () => void; status: (status: number, message: string) => void },
): boolean => {
  switch (query) {
    case 'fake:credits':
      errors.credits();
      return true;
    case 'fake:unauthorized':
      errors.status(401, 'Unauthorized.');
      return true;
    case 'fake:forbidden':
      errors.status(403, 'Unauthorized.');
      return true;
    case 'fake:rate-limit': {
      const hits = (state.hits.get(query) ?? 0) + 1;
      state.hits.set(query, hits);
      if (hits % 2 === 1) {
        res.setHeader('retry-after', '1');
        errors.status(429, 'Too many requests');
        return true;
      }
      return false;
    }
    case 'fake:rate-limit-always':
      res.setHeader('retry-after', '120');
      errors.status(429, 'Too many requests');
      return true;
    case 'fake:error':
      errors.status(500, 'Internal server error');
      return true;
    case 'fake:unavailable':
      errors.status(503, 'Service unavailable');
      return true;
    case 'fake:not-json':
      send(res, 200, '<html><body><h1>502 Bad Gateway</h1></body></html>');
      return true;
    case 'fake:hang':
      return true;
    default:
      return false;
  }
};

const serperFields = new Set(['q', 'gl', 'hl', 'num', 'page', 'tbs', 'location', 'autocorrect', 'type']);

/** `POST /search` as google.serper.dev answers it. */
export const startSerperFake = (options: { readonly apiKey: string }): Promise<FakeService> =>
  startFake((request, res, state) => {
    const fail = (status: number, message: string): void => send(res, status, { message, statusCode: status });
    if (request.path !== '/search') return fail(404, `Cannot ${request.method} ${request.path}`);
    if (request.method !== 'POST') return fail(405, 'Method not allowed');
    if (request.headers['x-api-key'] !== options.apiKey) return fail(403, 'Unauthorized.');
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) return fail(400, 'Content-Type must be application/json');
    const body = request.body;
    if (!isRecord(body)) return fail(400, 'Invalid JSON body');
    const unknown = Object.keys(body).filter((key) => !serperFields.has(key));
    if (unknown.length > 0) return fail(400, `property ${unknown[0] as string} should not exist`);
    if (typeof body['q'] !== 'string' || body['q'] === '') return fail(400, 'q must be a non-empty string');
    const num = body['num'] ?? 10;
    const page = body['page'] ?? 1;
    if (typeof num !== 'number' || !Number.isInteger(num) || num < 1 || num > 100) return fail(400, 'num must be an integer from 1 to 100');
    if (typeof page !== 'number' || !Number.isInteger(page) || page < 1) return fail(400, 'page must be a positive integer');
    for (const key of ['gl', 'hl'] as const)
      if (body[key] !== undefined && (typeof body[key] !== 'string' || body[key] !== (body[key] as string).toLowerCase()))
        return fail(400, `${key} must be a lower-case code`);
    if (body['tbs'] !== undefined && !/^qdr:[hdwmy]$/.test(String(body['tbs']))) return fail(400, 'tbs is invalid');
    const q = body['q'];
    if (magic(q, res, state, { credits: () => fail(400, 'Not enough credits'), status: fail })) return;
    const searchParameters = {
      q,
      gl: body['gl'] ?? 'us',
      hl: body['hl'] ?? 'en',
      type: 'search',
      num,
      page,
      ...(body['tbs'] === undefined ? {} : { tbs: body['tbs'] }),
      engine: 'google',
    };
    if (q === 'fake:empty') return send(res, 200, { searchParameters, organic: [], credits: 1 });
    const snippet =
      q === 'fake:many' ? 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20).trim() : `A result about ${q}.`;
    const organic = Array.from({ length: num }, (_, index) => {
      const position = (page - 1) * num + index + 1;
      return {
        title: `Result ${position} for ${q}`,
        link: `https://example.com/${position}`,
        snippet,
        ...(position % 2 === 0 ? { date: 'Mar 4, 2026' } : {}),
        ...(position === 1 ? { sitelinks: [{ title: 'Support', link: 'https://example.com/support' }] } : {}),
        position,
      };
    });
    const rich =
      q === 'fake:rich'
        ? {
            answerBox: { title: 'Apple Inc.', answer: 'Tim Cook', link: 'https://example.com/answer' },
            knowledgeGraph: {
              title: 'Apple',
              type: 'Technology company',
              website: 'http://www.apple.com/',
              description: 'Apple Inc. is an American multinational technology company.',
              descriptionSource: 'Wikipedia',
              attributes: { CEO: 'Tim Cook (Aug 24, 2011–)', Headquarters: 'Cupertino, CA' },
            },
            peopleAlsoAsk: [
              {
                question: 'Who owns Apple?',
                snippet: 'Apple is publicly traded.',
                title: 'Apple ownership',
                link: 'https://example.com/paa',
              },
            ],
            relatedSearches: [{ query: 'apple inc stock' }],
          }
        : {};
    send(res, 200, { searchParameters, ...rich, organic, credits: 1 });
  });

const perplexityFields = new Set([
  'model',
  'messages',
  'max_tokens',
  'temperature',
  'top_p',
  'stream',
  'search_domain_filter',
  'search_recency_filter',
  'web_search_options',
  'search_mode',
  'return_images',
  'return_related_questions',
  'reasoning_effort',
]);
const perplexityModels = new Set(['sonar', 'sonar-pro', 'sonar-reasoning-pro', 'sonar-deep-research']);

interface FakeRefusal {
  readonly status: number;
  readonly message: string;
  readonly type?: string;
}

/** Why api.perplexity.ai refuses a request, or undefined when it takes it. */
const perplexityRefusal = (request: FakeRequest, apiKey: string): FakeRefusal | undefined => {
  if (request.path !== '/chat/completions') return { status: 404, message: 'Not found' };
  if (request.method !== 'POST') return { status: 405, message: 'Method not allowed' };
  if (request.headers.authorization !== `Bearer ${apiKey}`) return { status: 401, message: 'Invalid API key provided.' };
  if (!(request.headers['content-type'] ?? '').startsWith('application/json'))
    return { status: 400, message: 'Content-Type must be application/json' };
  const body = request.body;
  if (!isRecord(body)) return { status: 400, message: 'Invalid JSON body' };
  const unknown = Object.keys(body).filter((key) => !perplexityFields.has(key));
  if (unknown.length > 0) return { status: 400, message: `Unrecognized request argument supplied: ${unknown[0] as string}` };
  const model = body['model'];
  if (typeof model !== 'string' || !perplexityModels.has(model))
    return {
      status: 400,
      message: `Invalid model '${String(model)}'. Permitted models can be found in the documentation.`,
      type: 'invalid_model',
    };
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return { status: 400, message: 'messages must be a non-empty array' };
  const last = messages.at(-1) as unknown;
  if (!isRecord(last) || last['role'] !== 'user' || typeof last['content'] !== 'string')
    return { status: 400, message: 'The last message must have role "user" and string content' };
  if (
    body['search_recency_filter'] !== undefined &&
    !['hour', 'day', 'week', 'month', 'year'].includes(String(body['search_recency_filter']))
  )
    return { status: 400, message: 'search_recency_filter must be one of hour, day, week, month, year' };
  const domains = body['search_domain_filter'];
  if (domains !== undefined && (!Array.isArray(domains) || domains.length > 20 || !domains.every((domain) => typeof domain === 'string')))
    return { status: 400, message: 'search_domain_filter must be a list of at most 20 domains' };
  return undefined;
};

/** The answer text and its sources for a query (magic queries shape them). */
const perplexityAnswer = (model: string, query: string): { readonly answer: string; readonly sources: Record<string, unknown> } => {
  const count = query === 'fake:many' ? 40 : query === 'fake:empty' ? 0 : 2;
  const urls = Array.from({ length: count }, (_, index) => `https://example.com/source-${index + 1}`);
  const answer =
    query === 'fake:empty'
      ? ''
      : `${model === 'sonar-reasoning-pro' ? '<think>Let me search for this.</think>\n' : ''}An answer about ${query} [1][2].${query === 'fake:many' ? ` ${'More detail. '.repeat(50)}` : ''}`;
  const sources = {
    citations: urls,
    ...(query === 'fake:citations-only'
      ? {}
      : {
          search_results: urls.map((url, index) => ({
            title: `Source ${index + 1}`,
            url,
            date: '2026-01-02',
            last_updated: '2026-01-03',
            snippet: `Snippet ${index + 1}`,
          })),
        }),
  };
  return { answer, sources };
};

/** Three content chunks, a final chunk with the sources and usage, then [DONE]. */
const streamCompletion = (res: ServerResponse, envelope: Record<string, unknown>, answer: string, final: Record<string, unknown>): void => {
  const third = Math.ceil(answer.length / 3);
  const parts = [answer.slice(0, third), answer.slice(third, 2 * third), answer.slice(2 * third)];
  const chunk = (data: unknown): string => `data: ${JSON.stringify(data)}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const part of parts)
    res.write(
      chunk({
        ...envelope,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, finish_reason: null, delta: { role: 'assistant', content: part } }],
      }),
    );
  res.write(
    chunk({
      ...envelope,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, finish_reason: 'stop', delta: { content: '' } }],
      ...final,
    }),
  );
  res.end('data: [DONE]\n\n');
};

/** `POST /chat/completions` as api.perplexity.ai answers it, streamed or not. */
export const startPerplexityFake = (options: { readonly apiKey: string }): Promise<FakeService> =>
  startFake((request, res, state) => {
    const fail = (status: number, message: string, type = status === 401 ? 'invalid_api_key' : 'invalid_request'): void =>
      send(res, status, { error: { message, type, code: status } });
    const refusal = perplexityRefusal(request, options.apiKey);
    if (refusal !== undefined) return fail(refusal.status, refusal.message, refusal.type);
    const body = request.body as Record<string, unknown>;
    const model = body['model'] as string;
    const query = ((body['messages'] as unknown[]).at(-1) as Record<string, unknown>)['content'] as string;
    if (
      magic(query, res, state, {
        credits: () => fail(400, 'Not enough credits', 'insufficient_quota'),
        status: (status, message) => fail(status, message),
      })
    )
      return;
    const { answer, sources } = perplexityAnswer(model, query);
    const usage = { prompt_tokens: 14, completion_tokens: 70, total_tokens: 84, search_context_size: 'low' };
    const envelope = { id: 'fake-completion', model, created: 1_724_369_245 };
    if (body['stream'] === true) return streamCompletion(res, envelope, answer, { ...sources, usage });
    send(res, 200, {
      ...envelope,
      object: 'chat.completion',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } }],
      ...sources,
      usage,
    });
  });
