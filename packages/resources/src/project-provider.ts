import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capText, closestNames, didYouMean, formatList, PromptyardError } from '@promptyard/core';
import type { ResourceContents, ResourceInfo, ResourceProvider } from '@promptyard/core';
import { renderCodeMap } from './builtin-code-map.js';

export interface ProjectOptions {
  /** Name → absolute folder. Only these are served; a URI never carries a path. */
  readonly paths: Readonly<Record<string, string>>;
  /** `codeweaver` (also found as `codeweawer`), another command taking the same flags, or `builtin`. */
  readonly command: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** The builtin renderer's per-file limit. */
  readonly maxFileBytes: number;
  /** The environment the command runs in (its PATH finds it); default: this process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const scheme = 'project';

const tail = (text: string, lines = 10): string =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .join('\n');

const commandsOf = (command: string): string[] =>
  command === 'codeweaver' || command === 'codeweawer' ? [command, command === 'codeweaver' ? 'codeweawer' : 'codeweaver'] : [command];

/** What of a finished run `checkRun` reads. */
interface CommandResult {
  readonly timedOut: boolean;
  readonly failed: boolean;
  readonly exitCode?: number | undefined;
  readonly shortMessage?: string | undefined;
  readonly stdout: unknown;
  readonly stderr: unknown;
}

/** A failed run as the error that says what to do; nothing when the command wrote its map. */
const checkRun = (command: string, result: CommandResult, folder: string, options: ProjectOptions): void => {
  if (result.timedOut)
    throw new PromptyardError(
      'TIMEOUT',
      `${command} took longer than ${options.timeoutMs} ms on ${folder}: raise [resources.project] timeout_ms or set command = "builtin".`,
    );
  if (result.failed && result.exitCode === undefined)
    throw new PromptyardError('SOURCE_ERROR', `${command} could not run: ${result.shortMessage}`);
  if (result.exitCode !== 0) {
    throw new PromptyardError(
      'SOURCE_ERROR',
      `${command} failed on ${folder} (exit ${String(result.exitCode)}):\n${tail(String(result.stderr)) || tail(String(result.stdout))}`,
    );
  }
};

/** Runs CodeWeaver (or the configured command) on `folder`, trying each of its names, and reads the map it wrote. */
const runCommand = async (options: ProjectOptions, folder: string, signal: AbortSignal | undefined): Promise<string> => {
  const candidates = commandsOf(options.command);
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-project-'));
  const output = join(dir, 'codebase.md');
  try {
    for (const command of candidates) {
      const { execa } = await import('execa');
      const result = await execa(command, ['-input', folder, '-output', output], {
        cwd: folder,
        shell: false,
        reject: false,
        timeout: options.timeoutMs,
        maxBuffer: options.maxBytes,
        stdin: 'ignore',
        ...(signal === undefined ? {} : { cancelSignal: signal }),
        ...(options.env === undefined ? {} : { env: options.env, extendEnv: false }),
      });
      if (result.code === 'ENOENT') continue;
      checkRun(command, result, folder, options);
      const text = await readFile(output, 'utf8').catch(() => '');
      if (text.trim() === '') {
        throw new PromptyardError(
          'SOURCE_ERROR',
          `${command} exited 0 but wrote no code map for ${folder}: it may not understand -input/-output (an unknown flag?); check \`${command} -h\` or set [resources.project] command = "builtin".`,
        );
      }
      return text;
    }
    throw new PromptyardError(
      'SOURCE_ERROR',
      `${formatList(candidates)} not found on PATH: install CodeWeaver (\`go install github.com/tesserato/CodeWeaver@latest\`, or a release binary), ` +
        `or set [resources.project] command to its path, or to "builtin" for the built-in renderer.`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** `project://a` or `project://b`, the way the hint shows project names. */
const asProjectUris = (names: readonly string[]): string => formatList(names.map((candidate) => `project://${candidate}`));

/** The real folder a `project://` URI names; an unknown name is refused with the closest known ones. */
const locateProject = async (options: ProjectOptions, uri: string): Promise<string> => {
  let name = uri.startsWith(`${scheme}://`) ? uri.slice(scheme.length + 3) : '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // unknown below
  }
  const configured = Object.hasOwn(options.paths, name) ? options.paths[name] : undefined;
  if (configured === undefined) {
    const close = closestNames(name, Object.keys(options.paths).sort());
    throw new PromptyardError(
      'RESOURCE_NOT_FOUND',
      `Unknown project "${name}"${didYouMean(close, 'clause', asProjectUris)} Projects are named under [resources.project.paths] in promptyard.toml.`,
      { data: { uri } },
    );
  }
  return realpath(configured).catch((error: unknown) => {
    throw new PromptyardError(
      'SOURCE_ERROR',
      `The folder of project "${name}" (${configured}) cannot be read: fix [resources.project.paths].`,
      {
        cause: error,
      },
    );
  });
};

/**
 * `project://{name}`: a configured folder as one Markdown code map, made by CodeWeaver (run without a
 * shell, `-output <tempfile>` so old builds that only write files work too) or the builtin renderer.
 */
export const createProjectProvider = (options: ProjectOptions): ResourceProvider => {
  const names = (): string[] => Object.keys(options.paths).sort();
  return {
    scheme,
    list: (): ResourceInfo[] =>
      names().map((name) => ({
        uri: `${scheme}://${encodeURIComponent(name)}`,
        name: `project:${name}`,
        title: `${name} code map`,
        mimeType: 'text/markdown',
      })),
    templates: () => [
      {
        uriTemplate: `${scheme}://{name}`,
        name: 'project',
        title: "A project's code map (tree and file contents)",
        mimeType: 'text/markdown',
      },
    ],
    complete: (_template, variable, value) =>
      variable === 'name' ? names().filter((name) => name.toLowerCase().startsWith(value.toLowerCase())) : [],
    read: async (uri, signal): Promise<ResourceContents[]> => {
      const folder = await locateProject(options, uri);
      const text =
        options.command === 'builtin'
          ? await renderCodeMap(folder, { maxBytes: options.maxBytes, maxFileBytes: options.maxFileBytes })
          : await runCommand(options, folder, signal);
      return [{ uri, mimeType: 'text/markdown', text: capText(text, options.maxBytes, '[resources.project] max_bytes') }];
    },
  };
};
