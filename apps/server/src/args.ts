import { parseArgs } from 'node:util';
import { isLogLevel, PromptyardError } from '@promptyard/core';
import type { Overrides } from './config.js';

export interface CliOptions {
  readonly help: boolean;
  readonly version: boolean;
  readonly config?: string;
  readonly overrides: Overrides;
}

export const usage = `Usage: promptyard-server [options]

Serve folders of Markdown prompts to MCP clients over stdio or Streamable HTTP.

Options:
  -c, --config <file>      promptyard.toml to read (default: $PROMPTYARD_CONFIG, else none)
  -p, --prompts <dir>      a prompt folder; repeat for several (replaces [prompts] folders)
  -t, --transport <kind>   stdio (default) or http
      --host <address>     HTTP bind address (default 127.0.0.1)
      --port <number>      HTTP port (default 3000; 0 picks a free port)
      --log-level <level>  debug, info, notice, warning or error (default info)
      --no-watch           do not watch the folders for changes
  -h, --help               show this help
  -v, --version            print the version

Environment: PROMPTYARD_<SECTION>_<KEY> sets any config key (PROMPTYARD_LIMITS_MAX_FILE_BYTES=…),
with short forms PROMPTYARD_TRANSPORT, PROMPTYARD_HOST, PROMPTYARD_PORT, PROMPTYARD_PROMPTS,
PROMPTYARD_LOG_LEVEL and PROMPTYARD_AUTH_TOKEN. Flags override the environment, which overrides the file.

Logs go to stderr; stdout carries only the protocol.`;

const usageError = (message: string): PromptyardError => new PromptyardError('CONFIG_INVALID', `${message}\nRun promptyard-server --help for the options.`);

export const parseCli = (argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliOptions => {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      strict: true,
      options: {
        config: { type: 'string', short: 'c' },
        prompts: { type: 'string', short: 'p', multiple: true },
        transport: { type: 'string', short: 't' },
        host: { type: 'string' },
        port: { type: 'string' },
        'log-level': { type: 'string' },
        'no-watch': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const { values } = parsed;
  const overrides: { -readonly [K in keyof Overrides]: Overrides[K] } = {};
  if (values.transport !== undefined) {
    if (values.transport !== 'stdio' && values.transport !== 'http') throw usageError(`--transport must be "stdio" or "http", got "${values.transport}".`);
    overrides.transport = values.transport;
  }
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) throw usageError(`--port must be an integer from 0 to 65535, got "${values.port}".`);
    overrides.port = port;
  }
  if (values.host !== undefined) overrides.host = values.host;
  if (values.prompts !== undefined) overrides.prompts = values.prompts;
  if (values['no-watch'] === true) overrides.watch = false;
  const level = values['log-level'];
  if (level !== undefined) {
    if (!isLogLevel(level)) throw usageError(`--log-level must be one of debug, info, notice, warning, error; got "${level}".`);
    overrides.logLevel = level;
  }
  const config = values.config ?? env['PROMPTYARD_CONFIG'];
  return {
    help: values.help === true,
    version: values.version === true,
    ...(config === undefined || config === '' ? {} : { config }),
    overrides,
  };
};
