/** The `promptyard-server` command, loaded by cli.ts. */
import { fileURLToPath } from 'node:url';
import { runClientCommand } from '@promptyard/client-config';
import { answerHelpOrVersion, helpText, painterFor, readPackageVersion, runCli } from '@promptyard/host';
import { handleShutdown } from '@promptyard/mcp';
import { parseCli, serverCommands, usage } from './args.js';
import { runCommand } from './commands.js';
import { resolveServerConfig } from './config.js';
import { startServer } from './serve/start-server.js';

const version = readPackageVersion(new URL('../package.json', import.meta.url));

const main = async (): Promise<void> => {
  const cli = parseCli(process.argv.slice(2), process.env);
  if (cli.clientArgs !== undefined) return clientCommand(cli.clientArgs);
  if (answerHelpOrVersion(cli, { usage: helpText(serverCommands, usage, cli.helpCommand), version })) return;
  if (cli.schema === true) {
    process.stdout.write((await import('./config-schema.js')).serverJsonSchemaText());
    return;
  }
  const resolveConfig = () => resolveServerConfig({ file: cli.config, env: process.env, cwd: process.cwd(), overrides: cli.overrides });
  const resolved = await resolveConfig();
  if (cli.command !== undefined) {
    // Commands print results, not a start-up log: only the environment's warnings are said.
    for (const warning of resolved.warnings) process.stderr.write(`promptyard-server: warning: ${warning}\n`);
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

/** `install` and `uninstall <client>`: this binary's entry in an MCP client's config file. */
const clientCommand = async (argv: readonly string[]): Promise<void> => {
  process.exitCode = await runClientCommand([...argv], {
    program: 'promptyard-server',
    packageName: '@promptyard/server',
    defaultName: 'promptyard',
    configFallback: 'promptyard.toml',
    configVariable: 'PROMPTYARD_CONFIG',
    promptsOption: true,
    script: fileURLToPath(new URL('cli.js', import.meta.url)),
  });
};

/** Runs the command line (cli.ts calls it once the heap settings are applied). */
export const run = (): void => runCli(main, { program: 'promptyard-server' });
