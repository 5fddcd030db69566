/** The `promptyard-gateway` command, loaded by cli.ts once the heap settings are applied. */
import { fileURLToPath } from 'node:url';
import { createLogger } from '@promptyard/core';
import { answerHelpOrVersion, errorPrefix, helpText, readPackageVersion, runCli, startupMark } from '@promptyard/host';
import { handleShutdown } from '@promptyard/mcp';
import {
  checkGatewayChain,
  GATEWAY_CHAIN_VARIABLE,
  GATEWAY_LOOP_EXIT_CODE,
  killAllChildren,
  spawnStdioServersEarly,
} from '@promptyard/router';
import { gatewayCommands, parseGatewayCli, usage } from './args.js';
import type { GatewayCli } from './args.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { loadConfig, locateConfig } from './config/load-config.js';

// Only what every command needs is imported here; each command's own code (serving, the status
// table, the terminal UI, logins, pins, client configs) loads when that command runs. Serving over
// stdio starts its servers before the serving code loads, so they boot while it does.
const version = readPackageVersion(new URL('../package.json', import.meta.url));

/**
 * The config for a command (status, ui, login, pins): commands print results, not a start-up log,
 * so only the environment's warnings (a misspelt PROMPTYARD_* variable) are said, on stderr.
 */
const loadCommandConfig = async (file: string, cli: GatewayCli): Promise<GatewayConfig> => {
  const config = await loadConfig(file, cli.overrides);
  for (const warning of config.warnings ?? []) process.stderr.write(`promptyard-gateway: warning: ${warning}\n`);
  return config;
};

const main = async (): Promise<void> => {
  startupMark('modules loaded');
  const cli = parseGatewayCli(process.argv.slice(2), process.env);
  if (cli.clientArgs !== undefined) return clientCommand(cli.clientArgs);
  if (answerHelpOrVersion(cli, { usage: helpText(gatewayCommands, usage, cli.helpCommand), version })) return;
  if (cli.command === 'schema') {
    // The schema is the same whatever the config says: no config is read.
    process.stdout.write((await import('./config/json-schema.js')).gatewayJsonSchemaText());
    return;
  }
  if (cli.command === 'ui' && process.stdin.isTTY !== true) {
    process.stderr.write(`${errorPrefix('promptyard-gateway')} ui needs a terminal; use promptyard-gateway status for a one-shot view\n`);
    process.exitCode = 2;
    return;
  }
  const file = locateConfig(cli.config, process.cwd());
  if (cli.command === 'login') {
    const config = await loadCommandConfig(file, cli);
    const server = cli.server ?? '';
    const { loginToServer } = await import('@promptyard/router');
    const result = await loginToServer(config, server, {
      announce: (url) =>
        process.stdout.write(
          `Open this URL in a browser to log in to ${server}:\n\n  ${url}\n\nWaiting for the authorization server's redirect…\n`,
        ),
    });
    process.stdout.write(
      result.grant === 'client_credentials'
        ? `The client credentials of ${server} work; the gateway gets its tokens itself (stored in ${result.file}).\n`
        : `Logged in to ${server}; tokens stored in ${result.file}. A running gateway uses them without a restart.\n`,
    );
    return;
  }
  if (cli.command === 'pins') {
    // The diff library loads only here: serving never pays for it.
    const { runPinsCommand } = await import('./pins-command.js');
    const config = await loadCommandConfig(file, cli);
    const logger = createLogger({ level: 'warning', format: config.logFormat, scope: 'gateway' });
    const options = {
      args: cli.pins ?? [],
      config,
      configFile: file,
      ...(config.pinsFile === undefined ? {} : { pinsFile: config.pinsFile }),
      logger,
    };
    process.exitCode = await runPinsCommand({ ...options, out: (text) => process.stdout.write(text) }, (text) =>
      process.stderr.write(text),
    );
    return;
  }
  // Before any server starts: a config that starts this gateway again must not start it for ever.
  const chain = checkGatewayChain(file, process.env, process.pid);
  if (chain.refused) {
    process.stderr.write(`${chain.line}\n`);
    process.exit(GATEWAY_LOOP_EXIT_CODE);
  }
  // Every backend inherits it, through whatever wrapper starts it.
  process.env[GATEWAY_CHAIN_VARIABLE] = chain.chain;
  // Serving logs the warnings with the start-up log.
  const config = cli.command === 'serve' ? await loadConfig(file, cli.overrides) : await loadCommandConfig(file, cli);

  if (cli.command === 'status') {
    const { runStatus } = await import('./status.js');
    process.exitCode = await runStatus(cli, config, version);
    return;
  }

  if (cli.command === 'ui') {
    // Ink and React load only here: serving never pays for them.
    const { runUi } = await import('./ui/run.js');
    await runUi({ file, config, overrides: cli.overrides, version });
    process.exit(0);
  }

  // A stdio client that closes stdin expects the gateway (and every server) gone at once.
  const stdio = config.transport.type === 'stdio';
  const shutdown = handleShutdown({
    program: 'promptyard-gateway',
    // With an audit file, SIGHUP reopens it (logrotate) instead of ending the gateway.
    signals: config.audit !== undefined && config.audit.file !== '-' ? ['SIGINT', 'SIGTERM'] : ['SIGINT', 'SIGTERM', 'SIGHUP'],
    stdio,
    graceMs: stdio ? 500 : 5000,
  });
  // The stdio servers start now (the signals above end them), while the gateway loads the MCP SDK;
  // their first connection takes them over. Over HTTP a port in use is reported before any server
  // starts, so they wait for the bind.
  if (stdio) spawnStdioServersEarly(config.servers);
  startupMark('config read');
  const { startGateway } = await import('./main.js');
  const gateway = await startGateway(file, config, { version, watch: cli.overrides.watch !== false, overrides: cli.overrides });
  await shutdown.started(() => gateway.close());
};

/** `install` and `uninstall <client>`: this binary's entry in an MCP client's config file. */
const clientCommand = async (argv: readonly string[]): Promise<void> => {
  const { runClientCommand } = await import('@promptyard/client-config');
  process.exitCode = await runClientCommand([...argv], {
    program: 'promptyard-gateway',
    packageName: '@promptyard/gateway',
    defaultName: 'promptyard-gateway',
    configFallback: 'gateway.toml',
    configVariable: 'PROMPTYARD_GATEWAY_CONFIG',
    script: fileURLToPath(new URL('cli.js', import.meta.url)),
  });
};

/** Runs the command line (cli.ts calls it once the heap settings are applied). */
export const run = (): void => {
  // Children lead their own process groups; whatever way the gateway ends, they end with it.
  process.on('exit', () => killAllChildren());
  runCli(main, {
    program: 'promptyard-gateway',
    beforeExit: killAllChildren,
    surviveExceptions: true,
  });
};
