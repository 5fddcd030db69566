import type { Composition } from './jinja-compose.js';
import type { BlockNode, LoadNode } from './jinja-nodes.js';
import type { JinjaNode } from './jinja-tree.js';

/**
 * How the nodes @huggingface/jinja does not know render, with Jinja2's scoping: a block sees the
 * template's top-level names (a `scoped` one also the loop around it) and `super()`; `with` opens
 * a scope; an include sees the names where it stands (or only the globals, `without context`);
 * an import runs its file with the globals only, and its macros keep seeing that file's names.
 */

/** The library's runtime value, seen structurally. */
export interface RuntimeValue {
  readonly type: string;
  readonly value: unknown;
}
export interface Environment {
  readonly variables: Map<string, RuntimeValue>;
  set(name: string, value: unknown): unknown;
  setVariable(name: string, value: RuntimeValue): RuntimeValue;
  lookupVariable(name: string): RuntimeValue;
}
type Native = (args: RuntimeValue[], scope: Environment) => RuntimeValue;

/** The library's value classes (it exports none), taken from values its environment makes. */
export interface ValueClasses {
  readonly FunctionValue: new (value: Native) => RuntimeValue;
  readonly ObjectValue: new (value: Map<string, RuntimeValue>) => RuntimeValue;
  readonly StringValue: new (value: string) => RuntimeValue;
  readonly ArrayValue: new (value: RuntimeValue[]) => RuntimeValue;
  readonly IntegerValue: new (value: number) => RuntimeValue;
  readonly FloatValue: new (value: number) => RuntimeValue;
  readonly NullValue: new () => RuntimeValue;
  readonly UndefinedValue: new () => RuntimeValue;
}

const classOf = <T>(value: unknown): T => (value as { constructor: T }).constructor;

export const valueClasses = (environment: Environment): ValueClasses => ({
  FunctionValue: classOf(environment.set('__function', () => null)),
  ObjectValue: classOf(environment.set('__object', {})),
  StringValue: classOf(environment.set('__string', '')),
  ArrayValue: classOf(environment.set('__array', [])),
  IntegerValue: classOf(environment.set('__integer', 1)),
  FloatValue: classOf(environment.set('__float', 1.5)),
  NullValue: classOf(environment.set('__null', null)),
  UndefinedValue: classOf(environment.set('__undefined', undefined)),
});

/** What the runtime needs from the interpreter rendering it. */
export interface Evaluator {
  evaluate(node: JinjaNode, environment: Environment): RuntimeValue;
  evaluateBlock(statements: readonly JinjaNode[], environment: Environment): RuntimeValue;
}

interface Frame {
  /** Where the template's top-level names live. */
  readonly root: Environment;
  readonly chains: ReadonlyMap<string, readonly BlockNode[]>;
  /** After `{% extends %}`: blocks render nothing there. */
  silent: boolean;
}

export const composedTypes: ReadonlySet<string> = new Set([
  'Composition',
  'Block',
  'Silent',
  'With',
  'Include',
  'Import',
  'FromImport',
  'Iterable',
]);

/** The renderer of composed nodes for one render. */
export class ComposedRuntime {
  readonly #frames: Frame[] = [];
  readonly #values: ValueClasses;
  readonly #scope: (parent: Environment) => Environment;
  readonly #globals: Environment;
  readonly #evaluator: Evaluator;

  /** `globals`: the runtime's names alone, for includes and imports without context. */
  constructor(values: ValueClasses, scope: (parent: Environment) => Environment, globals: Environment, evaluator: Evaluator) {
    this.#values = values;
    this.#scope = scope;
    this.#globals = globals;
    this.#evaluator = evaluator;
  }

  evaluate(node: JinjaNode, environment: Environment): RuntimeValue {
    const fields = node as unknown as Readonly<Record<string, unknown>>;
    switch (node.type) {
      case 'Composition':
        return this.#composition(node as Composition, environment);
      case 'Block':
        return this.#block(node as BlockNode, environment);
      case 'Silent':
        return this.#silent(fields['body'] as JinjaNode[], environment);
      case 'Iterable':
        return this.#iterable(fields['expression'] as JinjaNode, environment);
      case 'With':
        return this.#with(fields['assignments'] as JinjaNode[], fields['body'] as JinjaNode[], environment);
      default:
        return this.#load(node as LoadNode, environment);
    }
  }

  #renderChain(chain: readonly BlockNode[], index: number, parent: Environment): RuntimeValue {
    const block = chain[index] as BlockNode;
    if (block.required && index === 0)
      throw new Error(`required block "${block.name}" is not defined by the template that extends this one`);
    const inner = this.#scope(parent);
    const parentBlock = (): RuntimeValue => {
      if (index + 1 >= chain.length) throw new Error(`super() in block "${block.name}": the block has no parent to render`);
      return this.#renderChain(chain, index + 1, parent);
    };
    inner.setVariable('super', new this.#values.FunctionValue(parentBlock));
    return this.#evaluator.evaluateBlock(block.body, inner);
  }

  #composition(node: Composition, environment: Environment): RuntimeValue {
    if (node.chains.size > 0) {
      const render = (chain: readonly BlockNode[]) => new this.#values.FunctionValue(() => this.#renderChain(chain, 0, environment));
      const blocks = new Map([...node.chains].map(([name, chain]) => [name, render(chain)]));
      environment.setVariable('self', new this.#values.ObjectValue(blocks));
    }
    this.#frames.push({ root: environment, chains: node.chains, silent: false });
    try {
      return this.#evaluator.evaluateBlock(node.body, environment);
    } finally {
      this.#frames.pop();
    }
  }

  #block(block: BlockNode, environment: Environment): RuntimeValue {
    const frame = this.#frames.at(-1);
    if (frame === undefined || frame.silent) return new this.#values.NullValue();
    return this.#renderChain(frame.chains.get(block.name) ?? [block], 0, block.scoped ? environment : frame.root);
  }

  #silent(body: readonly JinjaNode[], environment: Environment): RuntimeValue {
    const frame = this.#frames.at(-1) as Frame;
    frame.silent = true;
    try {
      this.#evaluator.evaluateBlock(body, environment);
    } finally {
      frame.silent = false;
    }
    return new this.#values.NullValue();
  }

  /** What a loop goes over: a string as its characters. */
  #iterable(expression: JinjaNode, environment: Environment): RuntimeValue {
    const value = this.#evaluator.evaluate(expression, environment);
    if (value.type !== 'StringValue') return value;
    return new this.#values.ArrayValue([...(value.value as string)].map((char) => new this.#values.StringValue(char)));
  }

  #with(assignments: readonly JinjaNode[], body: readonly JinjaNode[], environment: Environment): RuntimeValue {
    const inner = this.#scope(environment);
    for (const assignment of assignments) {
      const { key, value } = assignment as unknown as { readonly key: { readonly value: string }; readonly value: JinjaNode };
      inner.setVariable(key.value, this.#evaluator.evaluate(value, environment));
    }
    return this.#evaluator.evaluateBlock(body, inner);
  }

  /** A loaded file's top-level names, as an import sees them: macros bound to that file's names. */
  #exports(module: Environment): Map<string, RuntimeValue> {
    const names = new Map<string, RuntimeValue>();
    for (const [name, value] of module.variables) {
      if (name === 'namespace' || name === 'self' || name.startsWith('_')) continue;
      const native = value.value as Native;
      const bound: Native = (args, caller) => {
        const call = this.#scope(module);
        const given = caller.lookupVariable('caller');
        if (given.type === 'FunctionValue') call.setVariable('caller', given);
        return native(args, call);
      };
      names.set(name, value.type === 'FunctionValue' ? new this.#values.FunctionValue(bound) : value);
    }
    return names;
  }

  #load(node: LoadNode, environment: Environment): RuntimeValue {
    const template = node.template as Composition | undefined;
    if (template === undefined) return new this.#values.NullValue();
    const inner = this.#scope(node.withContext ? environment : this.#globals);
    const text = this.#composition(template, inner);
    if (node.type === 'Include') return text;
    const names = this.#exports(inner);
    if (node.target !== undefined) environment.setVariable(node.target, new this.#values.ObjectValue(names));
    for (const [name, alias] of node.imports ?? []) environment.setVariable(alias, names.get(name) ?? new this.#values.UndefinedValue());
    return new this.#values.NullValue();
  }
}
