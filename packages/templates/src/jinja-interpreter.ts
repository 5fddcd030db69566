import { createRequire } from 'node:module';
import { describeError } from '@promptyard/core';
import { composedTypes, ComposedRuntime, valueClasses, type Environment, type RuntimeValue, type ValueClasses } from './jinja-runtime.js';
import { writeValuesAsPython } from './jinja-display.js';
import { pythonOperation } from './jinja-python-ops.js';
import type { JinjaNode } from './jinja-tree.js';

/**
 * @huggingface/jinja, loaded on the first compile (a library without Prompty files never pays for
 * it), and its interpreter bounded: the render stops at the deadline, any string, list or width
 * over its limit ends it saying what to change, an error names the file and line of its
 * statement, and the nodes the library lacks render through jinja-runtime.ts.
 */

/**
 * The part of the library used here, typed structurally: its published declarations import their
 * siblings without extensions, which NodeNext resolution does not follow.
 */
export interface JinjaModule {
  tokenize(source: string): unknown[];
  parse(tokens: unknown[]): Program;
  readonly Environment: new (parent?: Environment) => Environment;
  readonly Interpreter: new (environment: Environment) => Interpreter;
}
export interface Program extends JinjaNode {
  readonly body: readonly JinjaNode[];
}
interface Interpreter {
  run(program: Program): RuntimeValue;
  evaluate(node: JinjaNode | undefined, environment: Environment): RuntimeValue;
  evaluateBlock(statements: readonly JinjaNode[], environment: Environment): RuntimeValue;
}

/** Where a statement was written: the file (undefined: the compiled template's own) and its line there. */
export interface Site {
  readonly file: string | undefined;
  readonly line: number;
}

const require = createRequire(import.meta.url);
let jinjaModule: JinjaModule | undefined;
let classes: ValueClasses | undefined;
export const loadJinja = (): JinjaModule => (jinjaModule ??= require('@huggingface/jinja') as JinjaModule);
const loadClasses = (jinja: JinjaModule): ValueClasses => {
  if (classes === undefined) {
    writeValuesAsPython(new jinja.Environment());
    classes = valueClasses(new jinja.Environment());
  }
  return classes;
};

/** Statements that write nothing (their value is None); an expression that is None writes `None`. */
const silentTypes: ReadonlySet<string> = new Set([
  'Set',
  'Macro',
  'Comment',
  'Break',
  'Continue',
  'Silent',
  'Include',
  'Import',
  'FromImport',
]);

/** How many evaluation steps (or list items made) pass between two looks at the clock. */
const clockEvery = 256;

/** A limit hit while rendering; its message is the whole story. */
export class LimitError extends Error {}

/** A render failure with the site of the statement that failed. */
export class LocatedError extends Error {
  readonly site: Site;
  readonly original: unknown;

  constructor(site: Site, original: unknown) {
    super(describeError(original));
    this.site = site;
    this.original = original;
  }
}

export interface Budget {
  readonly deadline: number;
  readonly outputLimit: number;
  readonly itemLimit: number;
  readonly renderLimitMs: number;
}

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

/** The interpreter class for one compiled template: its statements' sites and the expressions that are sizes. */
export const boundedInterpreter = (jinja: JinjaModule, sites: ReadonlyMap<JinjaNode, Site>, sizes: ReadonlySet<JinjaNode>) =>
  class BoundedInterpreter extends jinja.Interpreter {
    #steps = 0;
    #nextLook = clockEvery;
    readonly #budget: Budget;
    readonly #composed: ComposedRuntime;
    readonly #text = (text: string): RuntimeValue => new (loadClasses(jinja).StringValue)(text);

    /** `globals`: the environment of the runtime's names alone, for includes and imports without context. */
    constructor(environment: Environment, globals: Environment, budget: Budget) {
      super(environment);
      this.#budget = budget;
      const scope = (parent: Environment): Environment => new jinja.Environment(parent);
      this.#composed = new ComposedRuntime(loadClasses(jinja), scope, globals, this);
    }

    override evaluate(statement: JinjaNode | undefined, environment: Environment): RuntimeValue {
      const budget = this.#budget;
      this.#spend(1);
      let value: RuntimeValue;
      try {
        value =
          statement === undefined
            ? super.evaluate(statement, environment)
            : composedTypes.has(statement.type)
              ? this.#composed.evaluate(statement, environment)
              : (pythonOperation(statement, (node) => this.evaluate(node, environment), loadClasses(jinja)) ??
                super.evaluate(statement, environment));
      } catch (error) {
        const lenient = statement === undefined ? undefined : lenientNode(statement, error);
        if (lenient !== undefined) return super.evaluate(lenient, environment);
        const site = statement === undefined ? undefined : sites.get(statement);
        if (site === undefined || error instanceof LocatedError) throw error;
        throw new LocatedError(site, error);
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

    /** As the library's, but an expression that is None writes `None`, as Jinja2 does. */
    override evaluateBlock(statements: readonly JinjaNode[], environment: Environment): RuntimeValue {
      let result = '';
      for (const statement of statements) {
        const value = this.evaluate(statement, environment);
        if (value.type === 'NullValue') result += silentTypes.has(statement.type) ? '' : 'None';
        else if (value.type !== 'UndefinedValue') result += String(value);
      }
      return this.#text(result);
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

/** Python's `range()`, refusing to make more numbers than the item limit. */
export const boundedRange =
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
