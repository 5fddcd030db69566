/**
 * V8 heap settings for a process that keeps a large, steady catalog (a server's prompts, a gateway's
 * routes) and makes short-lived objects per request. Both binaries call `applyHeapSettings()` first,
 * before importing the rest of the program, so that loading the other modules runs under them too;
 * the subpath `@promptyard/host/heap-settings` imports nothing else for that reason.
 *
 * - **The young generation stays at its starting size.** V8 doubles it (up to 2 × 16 MB) once enough
 *   bytes have survived scavenges since the last doubling, and never gives the space back: loading
 *   10,000 prompts, or relaying a few thousand calls, grows it to its cap, where it stays though
 *   little lives in it.
 * - **The old generation grows by at most 30% over what survived the last full collection** before
 *   the next one (V8 allows up to 4× on small heaps). Every request leaves a little garbage in the
 *   old generation (on Node 20 each request's AbortSignal, made by the MCP SDK, outlives the young
 *   generation), which otherwise piles up for a long time before it is collected.
 * - **On request, V8 favours memory over speed (`--optimize-for-size`, `favourMemory`).** Above all the
 *   old generation then grows by steps of 2 MB between full collections instead of at least 8 MB,
 *   which on a heap as small as the gateway's (~12 MB live) is what bounds it, not the 30% above.
 *   The gateway after 3,100 relayed calls: 1.3–2.6 MB less resident, after 11,000: 5.3 MB less, with
 *   no cost per call or at start-up outside the noise (medians of 3–7 runs). promptyard-server with
 *   10,000 prompts: ~3.5 MB less when ready and 12 MB less after 2,000 gets, but its start is 5–11%
 *   slower (more full collections while loading), so only the gateway asks for it.
 *
 * bench/prompts.bench.ts and bench/gateway.bench.ts measure what they save (figures in
 * bench/README.md). These flags are read at every collection, so setting them from inside the program
 * takes effect, while node's own `--max-semi-space-size` cannot be. Starting a worker thread (the
 * prompt folders' reader is one) puts V8's flags back as node was started with, so they are set again
 * once each worker is online. A flag of the same kind given to node by the user (command line or
 * NODE_OPTIONS) wins over ours.
 */
import { setFlagsFromString } from 'node:v8';

/** Sets the flags (once per process; again whenever a worker thread comes online). */
export const applyHeapSettings = ({ favourMemory = false }: { readonly favourMemory?: boolean } = {}): void => {
  const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ');
  const flags = [
    ...(/semi[-_]space/.test(given) ? [] : ['--semi-space-growth-factor=1']),
    ...(/heap[-_]growing/.test(given) ? [] : ['--heap-growing-percent=30']),
    ...(favourMemory && !/optimize[-_]for[-_]size/.test(given) ? ['--optimize-for-size'] : []),
  ];
  if (flags.length === 0) return;
  const apply = (): void => {
    for (const flag of flags) setFlagsFromString(flag);
  };
  apply();
  process.on('worker', (worker) => worker.once('online', apply));
};
