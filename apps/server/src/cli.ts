#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { describeError, isPromptyardError } from '@promptyard/core';
import { parseCli, usage } from './args.js';
import { runCommand } from './commands.js';
import { resolveServerConfig } from './config.js';
import { startServer } from './main.js';
import type { RunningServer } from './main.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const fail = (error: unknown): never => {
  process.stderr.write(`promptyard-server: ${isPromptyardError(error) ? error.message : describeError(error)}\n`);
  process.exit(isPromptyardError(error) && error.code === 'CONFIG_INVALID' ? 2 : 1);
};

const main = async (): Promise<void> => {
  const cli = parseCli(process.argv.slice(2), process.env);
  if (cli.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  if (cli.version) {
    process.stdout.write(`${version}\n`);
    return;
  }
  const resolved = await resolveServerConfig({ file: cli.config, env: process.env, cwd: process.cwd(), overrides: cli.overrides });
  if (cli.command !== undefined) {
    const io = { stdout: (text: string) => process.stdout.write(text), stderr: (text: string) => process.stderr.write(text), cwd: process.cwd() };
    process.exitCode = await runCommand(cli.command, resolved, io);
    return;
  }

  // Signals may arrive while the server is still starting: remember them and stop once it is up.
  const running: { server?: RunningServer } = {};
  let stopping: string | undefined;
  const shutdown = (reason: string): void => {
    if (stopping !== undefined) return;
    stopping = reason;
    process.stderr.write(`promptyard-server: shutting down (${reason})\n`);
    const force = setTimeout(() => process.exit(0), 3000);
    force.unref();
    if (running.server !== undefined) void running.server.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  if (resolved.config.transport.type === 'stdio') {
    // The client closing our stdin ends the session.
    process.stdin.once('end', () => shutdown('stdin closed'));
    process.stdout.on('error', () => shutdown('stdout closed'));
  }
  running.server = await startServer(resolved, { version });
  if (stopping !== undefined) await running.server.close().finally(() => process.exit(0));
};

process.on('unhandledRejection', (reason) => {
  process.stderr.write(`promptyard-server: unexpected error (kept running): ${describeError(reason)}\n`);
});

main().catch(fail);
