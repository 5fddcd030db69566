/** The `promptyard-server` command, loaded by cli.ts. */
import { readFileSync } from 'node:fs';
import { describeError, isPromptyardError } from '@promptyard/core';
import { handleShutdown } from '@promptyard/mcp';
import { parseCli, usage } from './args.js';
import { runCommand } from './commands.js';
import { resolveServerConfig } from './config.js';
import { startServer } from './main.js';

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
    const io = {
      stdout: (text: string) => process.stdout.write(text),
      stderr: (text: string) => process.stderr.write(text),
      cwd: process.cwd(),
    };
    process.exitCode = await runCommand(cli.command, resolved, io);
    return;
  }

  // Over stdio, the client closing our stdin ends the session.
  const shutdown = handleShutdown({
    program: 'promptyard-server',
    signals: ['SIGINT', 'SIGTERM'],
    stdio: resolved.config.transport.type === 'stdio',
    graceMs: 3000,
  });
  const server = await startServer(resolved, { version });
  await shutdown.started(() => server.close());
};

process.on('unhandledRejection', (reason) => {
  process.stderr.write(`promptyard-server: unexpected error (kept running): ${describeError(reason)}\n`);
});

main().catch(fail);
