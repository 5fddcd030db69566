import type { CompileOptions, CompiledTemplate, TemplateEngine } from '@promptyard/core';
import { compose, type Composition } from './jinja-compose.js';
import { locatedAt, runtimeReason, templateError } from './jinja-errors.js';
import { anyChanged, templateFolder, type FileStamp, type TemplateFolder } from './jinja-files.js';
import {
  boundedInterpreter,
  boundedRange,
  loadJinja,
  LocatedError,
  type JinjaModule,
  type Program,
  type Site,
} from './jinja-interpreter.js';
import { parseTemplate } from './jinja-parse.js';
import { readTree, type JinjaNode } from './jinja-tree.js';
import { templateEngine } from './template-engine.js';

export interface JinjaEngineOptions {
  /** Wall-clock budget of one render, checked every few hundred evaluation steps. Default 5000. */
  readonly renderLimitMs?: number;
  /** Characters any one string may have, the output included. Default 1,000,000. */
  readonly outputLimit?: number;
  /** Items any one list may have (`range()`, `+`, filters). Default 100,000. */
  readonly itemLimit?: number;
  /** Characters one parse may read, and all the files one template loads together. Default 1,000,000. */
  readonly parseLimit?: number;
}

/** One compile's result: the tree to render, what it reads, and the files it loaded as they were. */
interface Compiled {
  readonly program: Program;
  readonly variables: readonly string[];
  readonly Interpreter: ReturnType<typeof boundedInterpreter>;
  readonly stamps: readonly FileStamp[];
}

/**
 * The template and every file it loads, parsed and composed into one tree (jinja-compose.ts):
 * syntax errors, unknown filters and files that cannot be loaded fail here, at their line.
 */
/**
 * `charLimit` bounds all files together; one loaded file may have `options.maxFileBytes`, else a
 * quarter of it (the server sets the parse limit to four times `[limits] max_file_bytes`).
 */
const compileTree = (jinja: JinjaModule, source: string, options: CompileOptions, charLimit: number): Compiled => {
  const sites = new Map<JinjaNode, Site>();
  const parsed = parseTemplate(jinja, source, { file: options.file, lineOffset: options.lineOffset ?? 0 }, sites);
  const stamps: FileStamp[] = [];
  const { file, root } = options;
  let folder: TemplateFolder | undefined;
  const findFolder = (): TemplateFolder | undefined =>
    root === undefined || file === undefined
      ? undefined
      : (folder ??= templateFolder(file, root, options.maxFileBytes ?? Math.floor(charLimit / 4)));
  const composition: Composition = compose(parsed, {
    parse: (text, loaded) => parseTemplate(jinja, text, { file: loaded, lineOffset: 0 }, sites),
    locate: locatedAt(sites),
    folder: findFolder,
    charLimit,
    stamps,
  });
  const program = { type: 'Program', body: [composition] } as Program;
  const { variables, sizes } = readTree(program);
  return { program, variables, Interpreter: boundedInterpreter(jinja, sites, sizes), stamps };
};

/**
 * Jinja, as Prompty renders it with Python's Jinja2 (`ImmutableSandboxedEnvironment`,
 * `keep_trailing_newline=True`: no block trimming; `{%-`/`-%}` trim), on @huggingface/jinja, with
 * Jinja2's statements the library lacks (blocks and `extends`, `include`, `import`, `with`,
 * `raw` …). Variables come from the syntax tree; a render is bounded in time, string and list
 * sizes, and cannot reach JavaScript objects (the library's values are its own wrappers, whose
 * attributes are looked up in maps, never on prototypes). Files a template loads are checked at
 * each render, and an edited one is read again: a render never uses a stale copy.
 */
export const createJinjaEngine = (options: JinjaEngineOptions = {}): TemplateEngine => {
  const renderLimitMs = options.renderLimitMs ?? 5000;
  const outputLimit = options.outputLimit ?? 1_000_000;
  const itemLimit = options.itemLimit ?? 100_000;
  const parseLimit = options.parseLimit ?? 1_000_000;
  const range = boundedRange(itemLimit);

  const compile = (source: string, compileOptions: CompileOptions = {}): CompiledTemplate => {
    const file = compileOptions.file;
    if (source.length > parseLimit) {
      throw templateError(`the template has ${source.length} characters, over the limit of ${parseLimit}`, { file }, undefined);
    }
    const jinja = loadJinja();
    let compiled = compileTree(jinja, source, compileOptions, parseLimit);
    const json = new Set(compileOptions.jsonArguments);

    return {
      variables: compiled.variables,
      render: async (args, renderOptions = {}) => {
        renderOptions.signal?.throwIfAborted();
        if (compiled.stamps.length > 0 && (await anyChanged(compiled.stamps)))
          compiled = compileTree(jinja, source, compileOptions, parseLimit);
        // Arguments below the runtime's names, so an argument called `range` cannot hide range().
        const given = new jinja.Environment();
        for (const [name, value] of Object.entries(args)) given.set(name, json.has(name) ? parseJson(value) : value);
        const scope = new jinja.Environment(given);
        const bare = new jinja.Environment();
        for (const [name, value] of Object.entries(globals(range))) {
          scope.set(name, value);
          bare.set(name, value);
        }
        const budget = { deadline: Date.now() + renderLimitMs, outputLimit, itemLimit, renderLimitMs };
        const interpreter = new compiled.Interpreter(scope, bare, budget);
        try {
          return String(interpreter.run(compiled.program).value);
        } catch (error) {
          if (error instanceof LocatedError) throw templateError(runtimeReason(error.original), error.site, error.original);
          throw templateError(runtimeReason(error), { file }, error);
        }
      },
    };
  };

  return templateEngine('jinja', compile);
};

/** A typed argument's value; text that is not JSON is kept as it was given. */
const parseJson = (value: string): unknown => {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

const globals = (range: (...args: unknown[]) => number[]): Record<string, unknown> => ({
  true: true,
  false: false,
  none: null,
  True: true,
  False: false,
  None: null,
  range,
  raise_exception: (message: unknown) => {
    throw new Error(String(message));
  },
});
