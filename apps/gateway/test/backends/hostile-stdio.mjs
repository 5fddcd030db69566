/**
 * A stdio MCP server (2025-11-25, plain JSON-RPC lines) whose tools answer with one message of
 * `--bytes` bytes (default 50 MB): `flood` writes its id before the payload, `flood_id_last` after it
 * (as the TypeScript SDK orders a response). It writes in 64 KB pieces as fast as its reader takes
 * them, and appends the time it had written `--limit` bytes of the message to `--crossed` (one line
 * per message): when the gateway's limit was crossed. `endless` waits for a second request (so that
 * two are in flight), then starts an answer (its id to come last) and never ends the line: it appends
 * the time it had written 4× `--limit` bytes to `--crossed`, and writes on until it is stopped.
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const total = Number(option('bytes', String(50 * 1024 * 1024)));
const limit = Number(option('limit', String(1024 * 1024)));
const crossed = option('crossed', undefined);

const send = (message) =>
  new Promise((resolve) => {
    if (process.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
    else process.stdout.once('drain', resolve);
  });

const write = (text) =>
  new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });

/** One response of `total` bytes to request `id`, its id before or after the payload, written piece by piece. */
const flood = async (id, idLast) => {
  const open = idLast
    ? '{"result":{"content":[{"type":"text","text":"'
    : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  const close = idLast ? `"}]},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n` : '"}]}}\n';
  const piece = 'x'.repeat(64 * 1024);
  let written = 0;
  let told = false;
  await write(open);
  written += open.length;
  while (written + close.length < total) {
    const next = Math.min(piece.length, total - close.length - written);
    // Noted before the piece that passes the limit goes out: the gateway may answer before the write returns.
    if (!told && written + next > limit && crossed !== undefined) {
      told = true;
      appendFileSync(crossed, `${Date.now()}\n`);
    }
    await write(next === piece.length ? piece : piece.slice(0, next));
    written += next;
  }
  await write(close);
};

/** An answer whose line never ends: 64 KB pieces, as fast as the reader takes them, until the process is stopped. */
const endless = async () => {
  while (queued < 2) await new Promise((resolve) => (arrived = resolve));
  const piece = 'x'.repeat(64 * 1024);
  const open = '{"result":{"content":[{"type":"text","text":"';
  await write(open);
  // The line's bytes so far, its opening included, as the gateway counts them: the time is noted before
  // the piece that takes the line past 4× the limit goes out (the gateway may cut and stop this process
  // as soon as it has read that piece).
  let written = open.length;
  for (;;) {
    if (written <= 4 * limit && written + piece.length > 4 * limit && crossed !== undefined) appendFileSync(crossed, `${Date.now()}\n`);
    await write(piece);
    written += piece.length;
  }
};

const tool = (name, description) => ({ name, description, inputSchema: { type: 'object', properties: {} } });

const answer = async (request) => {
  const { id, method, params } = request;
  if (method === 'initialize') {
    return send({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'hostile-stdio', version: '1.0.0' },
      },
    });
  }
  if (method === 'tools/list') {
    return send({
      jsonrpc: '2.0',
      id,
      result: {
        tools: [
          tool('flood', 'Answers with one huge message, id first.'),
          tool('flood_id_last', 'Answers with one huge message, id last.'),
          tool('endless', 'Starts an answer whose line never ends.'),
        ],
      },
    });
  }
  if (method === 'tools/call' && params.name === 'endless') return endless();
  if (method === 'tools/call') return flood(id, params.name === 'flood_id_last');
  return send({ jsonrpc: '2.0', id, result: {} });
};

// One request at a time, in order: a flood is written whole before the next answer.
let queue = Promise.resolve();
/** Requests received and not answered yet; `arrived` is called at each. */
let queued = 0;
let arrived = () => {};
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  queued++;
  arrived();
  queue = queue.then(() => answer(message)).finally(() => queued--);
});
