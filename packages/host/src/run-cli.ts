import { readFileSync } from 'node:fs';
import { describeError, isPromptyardError } from '@promptyard/core';
import { errorPrefix } from './colors.js';

/** The `version` of the package.json at `url` (the binary's own, next to its `dist/`). */
export const readPackageVersion = (url: URL): string => (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;

/** `--help` and `--version`: prints the answer on stdout; true when one was asked for and the program is done. */
export const answerHelpOrVersion = (
  cli: { readonly help: boolean; readonly version: boolean },
  answers: { readonly usage: string; readonly version: string },
): boolean => {
  if (cli.help) process.stdout.write(`${answers.usage}\n`);
  else if (cli.version) process.stdout.write(`${answers.version}\n`);
  return cli.help || cli.version;
};

export interface RunCliOptions {
  /** The binary's name, the start of every line it writes on stderr. */
  readonly program: string;
  /** Runs before a failed program exits (the gateway ends its servers' process groups). */
  readonly beforeExit?: () => void;
  /** An uncaught exception is reported and survived too, as an unhandled rejection always is. */
  readonly surviveExceptions?: boolean;
}

/**
 * How a CLI fails: one line on stderr (a Promptyard error's message as is, anything else
 * described), then exit code 2 for an invalid config or usage, 1 for anything else.
 */
const failCli = (error: unknown, { program, beforeExit }: RunCliOptions): never => {
  process.stderr.write(`${errorPrefix(program)} ${isPromptyardError(error) ? error.message : describeError(error)}\n`);
  beforeExit?.();
  process.exit(isPromptyardError(error) && error.code === 'CONFIG_INVALID' ? 2 : 1);
};

/** Runs a binary's `main`: a stray rejection is reported and survived (a server keeps serving), a failure of `main` ends the process. */
export const runCli = (main: () => Promise<void>, options: RunCliOptions): void => {
  const survive = (reason: unknown): void => {
    process.stderr.write(`${errorPrefix(options.program)} unexpected error (kept running): ${describeError(reason)}\n`);
  };
  process.on('unhandledRejection', survive);
  if (options.surviveExceptions === true) process.on('uncaughtException', survive);
  main().catch((error: unknown) => failCli(error, options));
};
