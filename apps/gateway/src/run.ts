/** The `promptyard-gateway` command, loaded by cli.ts once the heap settings are applied. */
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runClientCommand } from '@promptyard/client-config';
import { createLogger } from '@promptyard/core';
import { answerHelpOrVersion, errorPrefix, helpText, painterFor, readPackageVersion, runCli, startupMark } from '@promptyard/host';
import { handleShutdown } from '@promptyard/mcp';
import {
  checkGatewayChain,
  GATEWAY_CHAIN_VARIABLE,
  GATEWAY_LOOP_EXIT_CODE,
  killAllChildren,
  loginToServer,
  Router,
  spawnStdioServersEarly,
} from '@promptyard/router';
import { gatewayCommands, parseGatewayCli, usage } from './args.js';
import type { GatewayCli } from './args.js';
import { routerConfigOf } from './config/gateway-config.js';
import type { GatewayConfig } from './config/gateway-config.js';
import { resolveProfile } from './config/profiles.js';
import { loadConfig, locateConfig, startGateway } from './main.js';
import { formatStatus, statusProgress } from './status.js';

const version = readPackageVersion(new URL('../package.json', import.meta.url));

// Children lead their own process groups; whatever way the gateway ends, they end with it.
process.on('exit', () => killAllChildren());

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
const runStatus = async (cli: GatewayCli, config: GatewayConfig): Promise<number> => {
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
    process.exitCode = await runStatus(cli, config);
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
  const gateway = await startGateway(file, config, { version, watch: cli.overrides.watch !== false, overrides: cli.overrides });
  await shutdown.started(() => gateway.close());
};

/** `install` and `uninstall <client>`: this binary's entry in an MCP client's config file. */
const clientCommand = async (argv: readonly string[]): Promise<void> => {
  process.exitCode = await runClientCommand([...argv], {
    program: 'promptyard-gateway',
    packageName: '@promptyard/gateway',
    defaultName: 'promptyard-gateway',
    configFallback: 'gateway.toml',
    configVariable: 'PROMPTYARD_GATEWAY_CONFIG',
    script: fileURLToPath(new URL('cli.js', import.meta.url)),
  });
};

runCli(main, {
  program: 'promptyard-gateway',
  beforeExit: killAllChildren,
  surviveExceptions: true,
});
