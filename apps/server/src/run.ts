/** The `promptyard-server` command, loaded by cli.ts. */
import { answerHelpOrVersion, helpText, painterFor, readPackageVersion, runCli } from '@promptyard/host';
import { handleShutdown } from '@promptyard/mcp';
import { parseCli, serverCommands, usage } from './args.js';
import { runCommand } from './commands.js';
import { resolveServerConfig } from './config.js';
import { startServer } from './serve/start-server.js';

const version = readPackageVersion(new URL('../package.json', import.meta.url));

const main = async (): Promise<void> => {
  const cli = parseCli(process.argv.slice(2), process.env);
  if (answerHelpOrVersion(cli, { usage: helpText(serverCommands, usage, cli.helpCommand), version })) return;
  const resolveConfig = () => resolveServerConfig({ file: cli.config, env: process.env, cwd: process.cwd(), overrides: cli.overrides });
  const resolved = await resolveConfig();
  if (cli.command !== undefined) {
    const io = {
      stdout: (text: string) => process.stdout.write(text),
      stderr: (text: string) => process.stderr.write(text),
      cwd: process.cwd(),
      paint: { stdout: painterFor(process.stdout), stderr: painterFor(process.stderr) },
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
  const server = await startServer(resolved, { version, reloadConfig: resolveConfig });
  await shutdown.started(() => server.close());
};

runCli(main, { program: 'promptyard-server' });
