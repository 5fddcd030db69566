/**
 * `promptyard-gateway status`: a line per server while it waits (each as it answers or times out),
 * then the table of every server's state, the collisions, quarantined definitions and totals.
 */
import { constants } from 'node:os';
import { createLogger } from '@promptyard/core';
import { painterFor } from '@promptyard/host';
import type { Paint, Tone } from '@promptyard/host';
import { killAllChildren, Router, spawnStdioServersEarly } from '@promptyard/router';
import type { BackendStatus, SurfaceStatus } from '@promptyard/router';
import type { GatewayCli } from './args.js';
import { routerConfigOf } from './config/gateway-config.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { resolveProfile } from './config/profiles.js';

const pad = (value: string, width: number): string => (value.length >= width ? value : value + ' '.repeat(width - value.length));

const totals = (status: SurfaceStatus): string =>
  `${status.counts.tools} tools, ${status.counts.prompts} prompts, ${status.counts.resources} resources, ${status.counts.resourceTemplates} templates`;

/**
 * The status table of a surface (the default one, or a profile's): one row per server, then
 * collisions, quarantined definitions, the totals (resources and templates counted apart as the rows
 * do) and, for the default surface, one line per profile.
 */
export const formatStatus = (
  status: SurfaceStatus & { readonly profiles?: readonly SurfaceStatus[] },
  paint: Paint = (_tone, text) => text,
): string => {
  const rows = status.backends.map((backend) => [
    backend.id,
    backend.state,
    backend.transport,
    backend.era === undefined ? '-' : `${backend.era}${backend.protocolVersion === undefined ? '' : ` ${backend.protocolVersion}`}`,
    String(backend.counts.tools),
    String(backend.counts.prompts),
    String(backend.counts.resources),
    String(backend.counts.resourceTemplates),
    String(backend.restarts),
    backend.lastError ?? '',
  ]);
  const header = ['server', 'state', 'transport', 'protocol', 'tools', 'prompts', 'resources', 'templates', 'restarts', 'last error'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (column === header.length - 1 ? 0 : (row[column] ?? '').length))),
  );
  // Padded first, painted after: colour codes take no room on the screen.
  const line = (cells: readonly string[], row?: number): string =>
    cells
      .map((cell, column) => {
        const padded = column === cells.length - 1 ? cell : pad(cell, widths[column] ?? 0);
        const state = row === undefined ? undefined : status.backends[row]?.state;
        return column === 1 && state !== undefined ? paint(toneOfState(state), padded) : padded;
      })
      .join('  ')
      .trimEnd();
  const lines = [line(header), ...rows.map((cells, row) => line(cells, row))];
  if (status.backends.length === 0) lines.push('(no servers configured)');
  for (const collision of status.collisions)
    lines.push(
      `${paint('warning', 'collision:')} ${collision.kind} "${collision.name}" served by ${collision.kept}; ${collision.dropped} hidden`,
    );
  for (const held of status.quarantined) lines.push(`${paint('warning', 'quarantined:')} ${held.message}`);
  for (const reason of status.backends.flatMap((backend) => backend.degraded ?? []))
    lines.push(`${paint('warning', 'degraded:')} ${reason}`);
  const learned = status.backends.filter((backend) => backend.listChanges !== undefined);
  if (learned.length > 0) lines.push(`list changes: ${learned.map((backend) => `${backend.id} ${backend.listChanges}`).join(', ')}`);
  const surface = status.profile === 'default' ? '' : ` (profile ${status.profile})`;
  lines.push(`total${surface}: ${totals(status)}${status.lazy ? ' (lazy: only meta tools listed)' : ''}`);
  for (const profile of status.profiles ?? [])
    lines.push(
      `profile ${profile.profile}: ${profile.backends.map((backend) => backend.id).join(', ') || 'no servers'}; ${totals(profile)}`,
    );
  return `${lines.join('\n')}\n`;
};

/** How a state reads: ready is good news, failed bad, disabled set aside, the rest a warning. */
const toneOfState = (state: BackendStatus['state']): Tone => {
  if (state === 'ready') return 'ok';
  if (state === 'failed') return 'failed';
  if (state === 'disabled' || state === 'stopped') return 'hidden';
  return 'warning';
};

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** The progress line of a server whose first attempt is over. */
const settledLine = (backend: BackendStatus, elapsedMs: number, paint: Paint): string => {
  const word = (tone: Tone, text: string): string => paint(tone, text.padEnd(7));
  const after = `after ${seconds(elapsedMs)}`;
  switch (backend.state) {
    case 'ready': {
      const { tools, prompts, resources } = backend.counts;
      return `${word('ok', 'ok')} ${backend.id}: ready ${after} (${tools} tools, ${prompts} prompts, ${resources} resources)`;
    }
    case 'disabled':
      return `${word('hidden', 'off')} ${backend.id}: disabled in the config (enabled = false)`;
    case 'needs-login':
      return `${word('warning', 'login')} ${backend.id}: needs a login ${after}: run promptyard-gateway login ${backend.id}`;
    default:
      return `${word('failed', 'failed')} ${backend.id}: ${backend.lastError ?? backend.state} (${after})`;
  }
};

export interface ProgressOptions {
  /** The servers started, in config order. */
  readonly ids: readonly string[];
  /** `[timeouts] connect_ms`: how long each server has to answer. */
  readonly connectMs: number;
  /** Writes progress text (stderr: stdout carries the table or the JSON). */
  readonly write: (text: string) => void;
  /** A terminal: a "waiting for …" line is kept at the bottom and updated in place. */
  readonly tty: boolean;
  readonly paint: Paint;
  readonly now?: () => number;
  /** Off a terminal, how often a `still starting: …` line names the servers not settled yet (5 s). */
  readonly everyMs?: number;
}

/** Whole seconds: the `still starting` line is a heartbeat, not a measurement. */
const wholeSeconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/**
 * Follows the servers' first attempts while `status` waits: says up front how long each may take,
 * then prints a line per server as it answers or fails (timed out included). While some are still
 * starting, a terminal keeps a waiting line updated in place; a pipe or a log gets a
 * `still starting: slow (5 s), other (5 s)` line every 5 s instead, so a hung server is never silent.
 * Feed it every status change; `stop()` ends it (and clears the waiting line on a terminal).
 */
export const statusProgress = (options: ProgressOptions): { update(backend: BackendStatus): void; stop(): void } => {
  const { ids, write, tty, paint } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const waiting = new Set(ids);
  const waitingLine = (): string =>
    waiting.size === 0
      ? ''
      : paint('hidden', `waiting for ${[...waiting].join(', ')} (${seconds(now() - started)} of ${seconds(options.connectMs)})`);
  // On a terminal the last line is the waiting line; it is rewritten in place (erase, carriage return).
  const redraw = (text = ''): void => write(`\r\u001b[2K${text}${waiting.size === 0 ? '' : waitingLine()}`);
  write(
    `Starting ${ids.length} server${ids.length === 1 ? '' : 's'}; each has ${seconds(options.connectMs)} to answer ([timeouts] connect_ms).\n`,
  );
  const stillStarting = (): void => {
    const elapsed = wholeSeconds(now() - started);
    if (waiting.size > 0) write(`still starting: ${[...waiting].map((id) => `${id} (${elapsed})`).join(', ')}\n`);
  };
  const timer =
    ids.length === 0 ? undefined : tty ? setInterval(() => redraw(), 1000) : setInterval(stillStarting, options.everyMs ?? 5000);
  timer?.unref();
  if (tty) redraw();
  return {
    update: (backend) => {
      if (!waiting.has(backend.id) || backend.state === 'starting') return;
      waiting.delete(backend.id);
      const line = `${settledLine(backend, now() - started, paint)}\n`;
      if (tty) redraw(line);
      else write(line);
    },
    stop: () => {
      clearInterval(timer);
      if (tty && waiting.size > 0) write('\r\u001b[2K');
    },
  };
};

/** `status`: interrupted while servers start (one may never answer), it ends them and exits as the signal would. */
const endOnSignals = (): void => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAllChildren();
      process.exit(128 + constants.signals[signal]);
    });
  }
};

/**
 * `status`: starts every server once, a line per server on stderr as each answers or times out, then
 * the table (or JSON) on stdout. Exit code 1 when any server is not ready (disabled ones aside).
 */
export const runStatus = async (cli: GatewayCli, config: GatewayConfig, version: string): Promise<number> => {
  const logger = createLogger({ level: 'error', format: config.logFormat, scope: 'gateway' });
  const router = new Router(routerConfigOf(config), { logger, version });
  endOnSignals();
  const progress = statusProgress({
    ids: config.servers.map((server) => server.id),
    connectMs: config.timeouts.connectMs,
    write: (text) => process.stderr.write(text),
    tty: process.stderr.isTTY === true,
    paint: painterFor(process.stderr),
  });
  const stopFollowing = router.on('status', (backend) => progress.update(backend));
  // The servers start while the MCP client loads; their first connection takes them over.
  spawnStdioServersEarly(config.servers);
  await router.start();
  stopFollowing();
  progress.stop();
  // Pins are not read here: `status` is a look, and must not record what it sees (`pins list` shows them).
  const status =
    cli.overrides.profile === undefined ? router.status() : router.view(resolveProfile(config, cli.overrides.profile)?.name).status();
  process.stdout.write(cli.json ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status, painterFor(process.stdout)));
  await router.close();
  return status.backends.some((backend) => backend.state !== 'ready' && backend.state !== 'disabled') ? 1 : 0;
};
