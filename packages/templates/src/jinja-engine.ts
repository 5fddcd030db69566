import { createRequire } from 'node:module';
import { PromptyardError, describeError } from '@promptyard/core';
import type { CompileOptions, CompiledTemplate, TemplateEngine } from '@promptyard/core';
import { filterLine, locateSyntaxError, statementLines } from './jinja-lines.js';
import { readTree, type JinjaNode } from './jinja-tree.js';
import { templateEngine } from './template-engine.js';

export interface JinjaEngineOptions {
  /** Wall-clock budget of one render, checked every few hundred evaluation steps. Default 5000. */
  readonly renderLimitMs?: number;
  /** Characters any one string may have, the output included. Default 1,000,000. */
  readonly outputLimit?: number;
  /** Items any one list may have (`range()`, `+`, filters). Default 100,000. */
  readonly itemLimit?: number;
  /** Characters one parse may read. Default 1,000,000. */
  readonly parseLimit?: number;
}

/**
 * The part of @huggingface/jinja used here, typed structurally: its published declarations import
 * their siblings without extensions, which NodeNext resolution does not follow.
 */
interface JinjaModule {
  tokenize(source: string): unknown[];
  parse(tokens: unknown[]): Program;
  readonly Environment: new (parent?: Environment) => Environment;
  readonly Interpreter: new (environment: Environment) => Interpreter;
}
interface Program extends JinjaNode {
  readonly body: readonly JinjaNode[];
}
interface Environment {
  set(name: string, value: unknown): unknown;
}
/** What `evaluate` returns: a runtime value with a `type` such as `StringValue`. */
interface RuntimeValue {
  readonly type: string;
  readonly value: unknown;
}
interface Interpreter {
  run(program: Program): RuntimeValue;
  evaluate(node: JinjaNode | undefined, environment: Environment): RuntimeValue;
}

// Loaded on the first compile: a library without Prompty files never pays for it.
const require = createRequire(import.meta.url);
let jinjaModule: JinjaModule | undefined;
const loadJinja = (): JinjaModule => (jinjaModule ??= require('@huggingface/jinja') as JinjaModule);

/** How many evaluation steps (or list items made) pass between two looks at the clock. */
const clockEvery = 256;

/**
 * The filters @huggingface/jinja 0.5 applies (its own, and the string methods it accepts as
 * filters). Any other name fails at load time, as Liquid's unknown filters do, not at each render.
 */
const knownFilters: ReadonlySet<string> = new Set(
  [
    ['abs', 'bool', 'capitalize', 'default', 'dictsort', 'first', 'float', 'indent', 'int', 'items', 'join', 'last', 'length', 'list'],
    [
      'lower',
      'map',
      'rejectattr',
      'replace',
      'reverse',
      'safe',
      'selectattr',
      'sort',
      'string',
      'title',
      'tojson',
      'trim',
      'unique',
      'upper',
    ],
    ['endswith', 'lstrip', 'rstrip', 'split', 'startswith', 'strip'],
  ].flat(),
);

/** A limit hit while rendering; its message is the whole story. */
class LimitError extends Error {}

/** A render failure with the template line of the statement that failed. */
class LocatedError extends Error {
  readonly line: number;
  readonly original: unknown;

  constructor(line: number, original: unknown) {
    super(describeError(original));
    this.line = line;
    this.original = original;
  }
}

interface Budget {
  readonly deadline: number;
  readonly outputLimit: number;
  readonly itemLimit: number;
  readonly renderLimitMs: number;
}

/**
 * The library's interpreter, counting its steps: the render stops at the deadline, and any string,
 * list or size over its limit ends it with a `LimitError` saying what to change.
 */
const boundedInterpreter = (jinja: JinjaModule, lines: ReadonlyMap<JinjaNode, number>, sizes: ReadonlySet<JinjaNode>) =>
  class BoundedInterpreter extends jinja.Interpreter {
    #steps = 0;
    #nextLook = clockEvery;
    readonly #budget: Budget;

    constructor(environment: Environment, budget: Budget) {
      super(environment);
      this.#budget = budget;
    }

    override evaluate(statement: JinjaNode | undefined, environment: Environment): RuntimeValue {
      const budget = this.#budget;
      this.#spend(1);
      let value: RuntimeValue;
      try {
        value = super.evaluate(statement, environment);
      } catch (error) {
        const lenient = statement === undefined ? undefined : lenientNode(statement, error);
        if (lenient !== undefined) return super.evaluate(lenient, environment);
        const line = statement === undefined ? undefined : lines.get(statement);
        if (line === undefined || error instanceof LocatedError) throw error;
        throw new LocatedError(line, error);
      }
      if (typeof value.value === 'string' && value.value.length > budget.outputLimit) {
        throw new LimitError(`the text grows past ${budget.outputLimit} characters: render less`);
      }
      if (Array.isArray(value.value)) {
        if (value.value.length > budget.itemLimit) throw new LimitError(`a list grows past ${budget.itemLimit} items: use fewer items`);
        // A loop over a list costs a step per item even when its body makes no node to evaluate.
        this.#spend(value.value.length);
      }
      if (statement !== undefined && sizes.has(statement) && typeof value.value === 'number' && value.value > budget.outputLimit) {
        throw new LimitError(`a width of ${value.value} is over ${budget.outputLimit} characters: use a smaller one`);
      }
      return value;
    }

    #spend(steps: number): void {
      this.#steps += steps;
      if (this.#steps < this.#nextLook) return;
      this.#nextLook = this.#steps + clockEvery;
      if (Date.now() > this.#budget.deadline) {
        throw new LimitError(`rendering took longer than ${this.#budget.renderLimitMs} ms ([timeouts] prompt_ms): loop over fewer items`);
      }
    }
  };

/**
 * What Jinja2 renders where @huggingface/jinja fails on an undefined value (an optional argument
 * not given): a filter of it is empty (`length` is 0), a loop over it runs its `else` block.
 */
const lenientNode = (statement: JinjaNode, error: unknown): JinjaNode | undefined => {
  if (!(error instanceof Error) || error instanceof LimitError || error instanceof LocatedError) return undefined;
  const fields = statement as unknown as Readonly<Record<string, unknown>>;
  if (statement.type === 'FilterExpression' && error.message.endsWith('to type: UndefinedValue')) {
    const filter = fields['filter'] as { readonly value?: unknown; readonly callee?: { readonly value?: unknown } } | undefined;
    const name = filter?.value ?? filter?.callee?.value;
    return name === 'length' ? ({ type: 'IntegerLiteral', value: 0 } as JinjaNode) : ({ type: 'StringLiteral', value: '' } as JinjaNode);
  }
  if (statement.type === 'For' && error.message === 'Expected iterable or object type in for loop: got UndefinedValue') {
    return { type: 'Program', body: fields['defaultBlock'] ?? [] } as JinjaNode;
  }
  return undefined;
};

/** Python's `range()`, refusing to make more numbers than the item limit. */
const boundedRange =
  (itemLimit: number) =>
  (...args: unknown[]): number[] => {
    const numbers = args.filter((arg): arg is number => typeof arg === 'number');
    if (numbers.length !== args.length || numbers.length === 0 || numbers.length > 3 || !numbers.every(Number.isInteger)) {
      throw new Error('range() takes one to three whole numbers: range(stop), range(start, stop) or range(start, stop, step)');
    }
    const [start, stop, step = 1] = numbers.length === 1 ? [0, numbers[0] as number] : (numbers as [number, number, number?]);
    if (step === 0) throw new Error('range() step must not be zero');
    const count = Math.max(0, Math.ceil((stop - start) / step));
    if (count > itemLimit) throw new LimitError(`range() of ${count} numbers is over the limit of ${itemLimit} items: loop over fewer`);
    return Array.from({ length: count }, (_, index) => start + index * step);
  };

/**
 * Jinja, as Prompty and Python's Jinja2 render it by default (no block trimming; `{%-`/`-%}` trim),
 * on @huggingface/jinja. Variables come from the syntax tree; a render is bounded in time, string
 * and list sizes, and cannot reach JavaScript objects (the library's values are its own wrappers,
 * whose attributes are looked up in maps, never on prototypes).
 */
export const createJinjaEngine = (options: JinjaEngineOptions = {}): TemplateEngine => {
  const renderLimitMs = options.renderLimitMs ?? 5000;
  const outputLimit = options.outputLimit ?? 1_000_000;
  const itemLimit = options.itemLimit ?? 100_000;
  const parseLimit = options.parseLimit ?? 1_000_000;
  const range = boundedRange(itemLimit);

  const compile = (source: string, compileOptions: CompileOptions = {}): CompiledTemplate => {
    const file = compileOptions.file;
    const lineOffset = compileOptions.lineOffset ?? 0;
    const fail = (reason: string, line: number | undefined, cause?: unknown): PromptyardError =>
      templateError(reason, file, line === undefined ? undefined : line + lineOffset, cause);
    if (source.length > parseLimit) throw fail(`the template has ${source.length} characters, over the limit of ${parseLimit}`, undefined);

    const jinja = loadJinja();
    const parse = (text: string): Program => jinja.parse(jinja.tokenize(text));
    let program: Program;
    try {
      program = parse(source);
    } catch (error) {
      const site = locateSyntaxError(source, (text) => {
        try {
          parse(text);
          return true;
        } catch {
          return false;
        }
      });
      throw fail(site?.reason ?? syntaxReason(error), site?.line, error);
    }
    const { variables, sizes, filters } = readTree(program);
    for (const name of filters) {
      if (!knownFilters.has(name))
        throw fail(`unknown filter "${name}"; known filters: ${[...knownFilters].sort().join(', ')}`, filterLine(source, name));
    }
    const lines = statementLines(program.body, source);
    const json = new Set(compileOptions.jsonArguments);
    const Interpreter = boundedInterpreter(jinja, lines, sizes);

    return {
      variables,
      render: async (args, renderOptions = {}) => {
        renderOptions.signal?.throwIfAborted();
        // Arguments below the runtime's names, so an argument called `range` cannot hide range().
        const given = new jinja.Environment();
        for (const [name, value] of Object.entries(args)) given.set(name, json.has(name) ? parseJson(value) : value);
        const scope = new jinja.Environment(given);
        for (const [name, value] of Object.entries(globals(range))) scope.set(name, value);
        const interpreter = new Interpreter(scope, { deadline: Date.now() + renderLimitMs, outputLimit, itemLimit, renderLimitMs });
        try {
          return String(interpreter.run(program).value);
        } catch (error) {
          if (error instanceof LocatedError) throw fail(runtimeReason(error.original), error.line, error.original);
          throw fail(runtimeReason(error), undefined, error);
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

/** The parser's words for what it met, in terms of what to write. */
const syntaxReason = (error: unknown): string => {
  const message = describeError(error);
  if (message === 'Unexpected end of input') return 'a string or tag is not closed: close it';
  if (error instanceof TypeError) return 'the template ends inside a tag or block: close it';
  return `${message.replace(/^Parser Error: /, '')} (Jinja syntax error)`;
};

const runtimeReason = (error: unknown): string => {
  if (error instanceof LimitError) return error.message;
  if (error instanceof RangeError) return `${error.message}: a macro calls itself too deeply, or a text grew too large`;
  return describeError(error);
};

const templateError = (reason: string, file: string | undefined, line: number | undefined, cause: unknown): PromptyardError => {
  // `reason` without the position, as file errors carry it (a log line names the file and line).
  const data: Record<string, unknown> = {};
  if (file !== undefined) data['file'] = file;
  if (line !== undefined) data['line'] = line;
  data['reason'] = reason;
  const where = file === undefined ? (line === undefined ? '' : `line ${line}: `) : line === undefined ? `${file}: ` : `${file}:${line}: `;
  return new PromptyardError('TEMPLATE_ERROR', `${where}${reason}`, { cause, data });
};
