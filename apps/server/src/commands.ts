import { relative } from 'node:path';
import { closestNames, createLogger, describeError, didYouMean, formatList } from '@promptyard/core';
import type { Diagnostic, DiagnosticSink, Logger, PromptEntry } from '@promptyard/core';
import { errorPrefix } from '@promptyard/host';
import type { Paint, Tone } from '@promptyard/host';
import { promptCard } from '@promptyard/prompts';
import type { CliCommand } from './args.js';
import type { ResolvedConfig } from './config.js';
import { createEngines, createLibrary, type Library } from './library/library.js';
import { lockCommand, lockFindings, syncCommand, versionLines, versionsCommand } from './git-commands.js';
import { loadProviders, promptSourcesOf } from './providers.js';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** Colours status words for stdout and for stderr (each only on a terminal). */
  readonly paint: { readonly stdout: Paint; readonly stderr: Paint };
}

/** The library, with the prompts of `[[providers]]` packages (their resources and tools are not needed here). */
const openLibrary = async (resolved: ResolvedConfig, logger: Logger, diagnostics?: DiagnosticSink): Promise<Library> => {
  const engines = createEngines(resolved.config);
  const fromProviders = promptSourcesOf(await loadProviders(resolved, { logger, engines }, ['prompts']));
  return createLibrary(resolved, logger, engines, fromProviders, { diagnostics });
};

const loadAll = async (library: Library): Promise<void> => {
  const loaded = await Promise.all(library.sources.map(({ source }) => source.load()));
  library.sources.forEach(({ owner }, index) => owner.replace(loaded[index] ?? []));
};

const entries = (library: Library): PromptEntry[] =>
  library.catalog.names().flatMap((name) => {
    const entry = library.catalog.get(name);
    return entry === undefined ? [] : [entry];
  });

/** One line of `validate`: a diagnostic a source reported, a duplicate name, or a lock mismatch. */
type Finding = Pick<Diagnostic, 'file' | 'line' | 'severity' | 'message'>;

/**
 * Loads every source once, gathering what each reports through the diagnostics sink, what the
 * catalog says about names served twice, and the lock's mismatches; the log is not read.
 */
const gatherFindings = async (resolved: ResolvedConfig): Promise<{ library: Library; findings: Finding[] }> => {
  const logger: Logger = createLogger({ level: 'error', write: () => {} });
  const findings: Finding[] = [];
  const library = await openLibrary(resolved, logger, (diagnostic) => findings.push(diagnostic));
  const stop = library.catalog.onConflict(({ name, kept, shadowed }) =>
    findings.push({ file: shadowed, severity: 'warning', message: `prompt "${name}" is also defined in ${kept}, which wins` }),
  );
  try {
    await loadAll(library);
  } finally {
    stop();
    await library.close();
  }
  findings.push(...(await lockFindings(resolved, logger)));
  return { library, findings };
};

const validate = async (resolved: ResolvedConfig, strict: boolean, io: CommandIo): Promise<number> => {
  const { library, findings } = await gatherFindings(resolved);
  findings.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
  for (const finding of findings) {
    const where = `${relative(io.cwd, finding.file) || finding.file}${finding.line === undefined ? '' : `:${finding.line}`}`;
    const severity = io.paint.stdout(finding.severity === 'error' ? 'failed' : 'warning', finding.severity);
    io.stdout(`${where}: ${severity}: ${finding.message}\n`);
  }
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const warnings = findings.length - errors;
  const count = (n: number, noun: string, tone: Tone): string =>
    io.paint.stderr(n === 0 ? 'ok' : tone, `${n} ${noun}${n === 1 ? '' : 's'}`);
  io.stderr(
    `validate: ${library.catalog.size} prompts from ${library.sources.length} sources; ${count(errors, 'error', 'failed')}, ${count(warnings, 'warning', 'warning')}\n`,
  );
  // Files that fail to load were reported above; a library with none at all gets the one answer.
  if (library.catalog.size === 0 && errors === 0) throw library.emptyLibrary();
  return errors > 0 || (strict && warnings > 0) ? 1 : 0;
};

/** Why `render` refuses `--arg` names the prompt does not take (MCP ignores them), or undefined. */
const unknownArguments = (entry: PromptEntry, args: Readonly<Record<string, string>>): string | undefined => {
  const known = entry.arguments.map((argument) => argument.name);
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  if (unknown.length === 0) return undefined;
  const hint = didYouMean(closestNames(unknown[0] as string, known, 1), 'clause');
  const takes = known.length === 0 ? 'it takes no arguments' : `it takes ${formatList(known, 'and')}`;
  return `prompt "${entry.name}" has no argument${unknown.length > 1 ? 's' : ''} ${formatList(unknown, 'and')}${hint} (${takes}).`;
};

/** Runs a command; resolves with the exit code. */
export const runCommand = async (command: CliCommand, resolved: ResolvedConfig, io: CommandIo): Promise<number> => {
  if (command.kind === 'validate') return validate(resolved, command.strict, io);
  const logger = createLogger({ level: 'warning', scope: 'promptyard', write: (line) => io.stderr(`${line}\n`) });
  if (command.kind === 'sync') return syncCommand(resolved, io, logger);
  if (command.kind === 'lock') return lockCommand(resolved, io, logger);
  const library = await openLibrary(resolved, logger);
  try {
    await loadAll(library);
    if (library.catalog.size === 0) throw library.emptyLibrary();
    return await runLibraryCommand(command, resolved, library, io, logger);
  } finally {
    await library.close();
  }
};

/** `list`, `render` and `versions`: on the loaded library. */
const runLibraryCommand = async (
  command: Extract<CliCommand, { readonly kind: 'list' | 'render' | 'versions' }>,
  resolved: ResolvedConfig,
  library: Library,
  io: CommandIo,
  logger: Logger,
): Promise<number> => {
  if (command.kind === 'list') {
    if (command.versions) for (const line of versionLines(library, io.paint.stdout)) io.stdout(`${line}\n`);
    for (const entry of entries(library)) io.stdout(`${promptCard(entry)}\n`);
    return 0;
  }
  if (command.kind === 'versions') return versionsCommand(resolved, library, library.prompts.find(command.name), io, logger);
  try {
    const unknown = unknownArguments(library.prompts.find(command.name), command.args);
    if (unknown !== undefined) {
      io.stderr(`${errorPrefix('promptyard-server', io.paint.stderr)} ${unknown}\n`);
      return 1;
    }
    const rendered = await library.prompts.get(command.name, command.args);
    const parts = rendered.messages.map((message) => {
      const { content } = message;
      const body =
        content.type === 'text'
          ? content.text
          : content.type === 'image'
            ? `[image ${content.mimeType}]`
            : `[resource ${content.resource.uri}]\n${'text' in content.resource ? content.resource.text : ''}`;
      return rendered.messages.length === 1 ? body : `[${message.role}]\n${body}`;
    });
    io.stdout(`${parts.join('\n\n')}\n`);
    return 0;
  } catch (error) {
    io.stderr(`${errorPrefix('promptyard-server', io.paint.stderr)} ${describeError(error)}\n`);
    return 1;
  }
};
