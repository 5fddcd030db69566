import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its starting size for the life of the process. Imported first by
 * the binary, so that loading the other modules runs under it too.
 *
 * V8 doubles the young generation (up to 2 × 16 MB) once enough bytes have survived scavenges since
 * the last doubling, and never gives the space back. A prompt server keeps a large, steady catalog
 * and makes short-lived objects per request: loading 10,000 prompts grows the space to its cap,
 * where it stays though little lives in it. Measured with 10,000 prompts (bench/prompts.bench.ts,
 * same run): RSS 185 → 163 MB; load, full list and get p50 no slower (list a little faster).
 * The growth factor is read at every scavenge, so setting it here takes effect, while node's own
 * `--max-semi-space-size` cannot be set from inside the program. Starting a worker thread (the
 * prompt folders' reader is one) puts V8's flags back as node was started with, so the setting is
 * made again once each worker is online. A young-generation flag given to node by the user (command
 * line or NODE_OPTIONS) wins: then nothing is changed.
 */
const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].some((flag) => /semi[-_]space/.test(flag));
if (!given) {
  const hold = (): void => setFlagsFromString('--semi-space-growth-factor=1');
  hold();
  process.on('worker', (worker) => worker.once('online', hold));
}
