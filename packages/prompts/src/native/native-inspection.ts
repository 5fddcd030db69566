import type { Diagnostic, PromptEntry, TemplateEngine } from '@promptyard/core';
import { fileErrorDetails } from '../formats/file-error.js';
import { describeKeyTypo, keyLine, wordLine } from '../formats/frontmatter-typos.js';
import { toPosixRelative } from '../folder/ignore.js';
import { mapLimit } from '../folder/map-limit.js';
import { readPromptText } from '../folder/read-prompt-text.js';
import type { SymlinkPolicy } from '../folder/symlinks.js';
import { checkClaudeFile, claudeRefusalNote } from './claude-checks.js';
import { checkCodexFile, codexRefusalNote } from './codex-checks.js';
import { checkContinueFile } from './continue-checks.js';
import { parseContinueFormat } from './continue-format.js';
import { checkCopilotFile, copilotRefusalNote } from './copilot-checks.js';
import { parseCopilotFormat } from './copilot-format.js';
import { freeTextName } from './dialect.js';
import { parseDollarFormat } from './dollar-formats.js';
import { checkGeminiFile } from './gemini-checks.js';
import { parseGeminiFormat } from './gemini-format.js';
import type { NativeDefinition, NativeFileInput, NativeFormat } from './native-definition.js';
import { createNativeEntry } from './native-entry.js';
import { listNativeFiles } from './native-files.js';
import { parsePromptyFormat } from './prompty-format.js';
import type { ToolFinding } from './tool-findings.js';
import { placeholderLine } from './unfilled.js';

/**
 * Something `validate` reports: a file that does not load, an argument declared but unused, a
 * placeholder nothing fills. A likely typo (`unknown-key`) is warned at load too, unlike the other warnings.
 */
export type NativeProblem = Diagnostic;

export interface NativeInspection {
  readonly entries: readonly PromptEntry[];
  readonly problems: readonly NativeProblem[];
}

/** What a full load of a native folder needs. */
export interface NativeFolder {
  readonly format: NativeFormat;
  readonly dir: string;
  readonly root: string;
  readonly prefix: string;
  readonly jinja: TemplateEngine;
  readonly mustache?: TemplateEngine;
  readonly maxFileBytes: number;
  readonly followExternal: boolean;
  readonly symlinks: SymlinkPolicy;
}

const parsers: Readonly<Record<NativeFormat, (input: NativeFileInput) => NativeDefinition>> = {
  'claude-commands': (input) => parseDollarFormat('claude-commands', input),
  'claude-skills': (input) => parseDollarFormat('claude-skills', input),
  codex: (input) => parseDollarFormat('codex', input),
  speckit: (input) => parseDollarFormat('speckit', input),
  copilot: parseCopilotFormat,
  continue: parseContinueFormat,
  gemini: parseGeminiFormat,
  prompty: parsePromptyFormat,
};

/** Per format, what the tool itself says about a file that loads, or does with it that we do not (tool-findings.ts). */
const toolChecks: Partial<Readonly<Record<NativeFormat, (input: NativeFileInput) => readonly ToolFinding[]>>> = {
  'claude-commands': checkClaudeFile,
  'claude-skills': checkClaudeFile,
  codex: checkCodexFile,
  continue: checkContinueFile,
  copilot: checkCopilotFile,
  gemini: checkGeminiFile,
};

/** Per format, what to add to the reason Promptyard refuses a file for, when the tool itself would load it. */
const refusalNotes: Partial<Readonly<Record<NativeFormat, (reason: string) => string | undefined>>> = {
  'claude-commands': claudeRefusalNote,
  'claude-skills': claudeRefusalNote,
  codex: codexRefusalNote,
  copilot: copilotRefusalNote,
};

/** A warning without a line points at the first line naming what it quotes (any line, for a message that quotes nothing). */
const locate = (text: string, problem: NativeProblem): NativeProblem => {
  if (problem.line !== undefined || problem.severity !== 'warning') return problem;
  const line = wordLine(text, /"([^"]+)"/.exec(problem.message)?.[1] ?? '');
  return line === undefined ? problem : { ...problem, line };
};

/** The warnings a definition earns: placeholders nothing fills, inputs declared but unused or used but undeclared. */
const definitionProblems = (file: string, text: string, definition: NativeDefinition, problems: NativeProblem[]): void => {
  const warn = (code: NativeProblem['code'], message: string, line?: number): void => {
    problems.push(locate(text, { file, severity: 'warning', code, message, ...(line === undefined ? {} : { line }) }));
  };
  for (const placeholder of definition.unfilled ?? [])
    warn(
      'format-warning',
      `placeholder ${placeholder} is not one Promptyard can fill; it reaches the model as written`,
      placeholderLine(text, placeholder),
    );
  for (const { message, line } of definition.warnings ?? []) warn('format-warning', message, line);
  for (const typo of definition.typos ?? []) warn('unknown-key', describeKeyTypo(typo), keyLine(text, typo.key));
  const used = new Set(definition.sections.flatMap((section) => section.variables));
  for (const name of definition.declared) {
    if (!used.has(name)) warn('unused-argument', `input "${name}" is declared but the prompt never uses it`);
  }
  if (definition.declared.length > 0) {
    const declared = new Set(definition.declared);
    for (const name of used) {
      if (!declared.has(name) && name !== freeTextName) warn('undeclared-variable', `"${name}" is used but not declared in inputs`);
    }
  }
};

/** Reads and parses one file into an entry, adding its problems; undefined when it does not load. */
const inspectFile = async (folder: NativeFolder, file: string, problems: NativeProblem[]): Promise<PromptEntry | undefined> => {
  const { format, dir, root, prefix, maxFileBytes, followExternal } = folder;
  const read = await readPromptText(file, maxFileBytes).catch((error: unknown) => ({ kind: 'error' as const, error }));
  if (read.kind === 'too-large') {
    problems.push({ file, severity: 'error', code: 'invalid-file', message: `the file is over the limit of ${maxFileBytes} bytes` });
    return undefined;
  }
  if (read.kind !== 'text') {
    if (read.kind === 'error')
      problems.push({ file, severity: 'error', code: 'invalid-file', message: `cannot read the file: ${String(read.error)}` });
    return undefined;
  }
  const source = toPosixRelative(dir, file);
  try {
    const text = read.text.replace(/\r\n/g, '\n');
    const engines = { jinja: folder.jinja, ...(folder.mustache === undefined ? {} : { mustache: folder.mustache }) };
    const input = { text, file, path: source, ...engines, root, maxFileBytes };
    const definition = parsers[format](input);
    definitionProblems(file, text, definition, problems);
    for (const { message, line } of toolChecks[format]?.(input) ?? [])
      problems.push(locate(text, { file, severity: 'warning', code: 'format-warning', message, ...(line === undefined ? {} : { line }) }));
    return createNativeEntry({ format, definition, file, source, prefix, root, maxFileBytes, followExternal });
  } catch (error) {
    const { reason, line } = fileErrorDetails(error);
    const note = refusalNotes[format]?.(reason);
    const message = note === undefined ? reason : `${reason}; ${note}`;
    problems.push({ file, severity: 'error', code: 'invalid-file', message, ...(line === undefined ? {} : { line }) });
    return undefined;
  }
};

/** Loads every file of a native folder, returning the entries that load and every problem found. */
export const inspectNativeFolder = async (folder: NativeFolder): Promise<NativeInspection> => {
  const files = await listNativeFiles(folder.dir, folder.format, folder.symlinks);
  const problems: NativeProblem[] = [];
  const results = await mapLimit(files, 16, (file) => inspectFile(folder, file, problems));
  const entries = results.filter((entry) => entry !== undefined);
  // Files are read concurrently: order the problems as the files are ordered.
  const order = new Map(files.map((file, index) => [file, index]));
  problems.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0));
  return { entries, problems };
};
