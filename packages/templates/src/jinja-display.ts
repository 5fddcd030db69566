import type { Environment, RuntimeValue } from './jinja-runtime.js';

/**
 * Values written out as Python writes them, where @huggingface/jinja writes them as JavaScript
 * does: `True`/`False`, `None`, and lists and dicts as Python's `repr` (`['a', 1]`, `{'k': None}`).
 * The library's value classes are patched once: its `toString` is what output, `~`, `join` and
 * `| string` use, where Jinja2 uses Python's `str`.
 */

const escapes: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Python's `repr` of a string: single quotes unless it holds one and no double quote. */
const reprString = (text: string): string => {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === quote) out += `\\${char}`;
    else if (escapes[char] !== undefined) out += escapes[char];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return `${quote}${out}${quote}`;
};

/** Python's `repr` of a value inside a list or dict. */
const pythonRepr = (value: RuntimeValue): string => {
  switch (value.type) {
    case 'StringValue':
      return reprString(value.value as string);
    case 'BooleanValue':
      return value.value === true ? 'True' : 'False';
    case 'NullValue':
      return 'None';
    case 'UndefinedValue':
      return '';
    case 'ArrayValue':
      return `[${(value.value as RuntimeValue[]).map(pythonRepr).join(', ')}]`;
    case 'TupleValue': {
      const items = (value.value as RuntimeValue[]).map(pythonRepr);
      return items.length === 1 ? `(${items[0] ?? ''},)` : `(${items.join(', ')})`;
    }
    case 'ObjectValue':
    case 'KeywordArgumentsValue':
      return `{${[...(value.value as Map<string, RuntimeValue>)].map(([key, item]) => `${reprString(key)}: ${pythonRepr(item)}`).join(', ')}}`;
    default:
      return String(value);
  }
};

let patched = false;

/** Patches the library's value classes, once, taking them from values `environment` makes. */
export const writeValuesAsPython = (environment: Environment): void => {
  if (patched) return;
  patched = true;
  const samples = [true, [], {}].map((value, index) => environment.set(`__sample${index}`, value));
  for (const sample of samples) {
    const prototype = Object.getPrototypeOf(sample) as { toString(): string };
    Object.defineProperty(prototype, 'toString', {
      value(this: RuntimeValue) {
        return pythonRepr(this);
      },
      configurable: true,
      writable: true,
    });
  }
};

/** Python's `str` of a value: `None` for none, nothing for an undefined one. */
const pythonString = (value: RuntimeValue): string =>
  value.type === 'NullValue' ? 'None' : value.type === 'UndefinedValue' ? '' : String(value);

type Fields = Readonly<Record<string, unknown>>;
type Node = { readonly type: string };

/** The filter a filter expression applies: its name and call arguments. */
const filterOf = (node: Node): { name: string; args: readonly Node[] } | undefined => {
  const filter = (node as unknown as Fields)['filter'] as Fields | undefined;
  if (node.type !== 'FilterExpression' || filter === undefined) return undefined;
  const callee = filter['type'] === 'CallExpression' ? (filter['callee'] as Fields) : filter;
  if (callee['type'] !== 'Identifier') return undefined;
  return { name: String(callee['value']), args: filter['type'] === 'CallExpression' ? (filter['args'] as Node[]) : [] };
};

/**
 * `a ~ b`, `x | string` and `xs | join(sep)` with Python's `str` of each value (`True`, `None`,
 * `['a']`), where the library writes JavaScript's; undefined for any other expression.
 */
export const pythonOperation = (
  node: Node,
  evaluate: (node: Node) => RuntimeValue,
  text: (value: string) => RuntimeValue,
): RuntimeValue | undefined => {
  const fields = node as unknown as Fields;
  if (node.type === 'BinaryExpression' && (fields['operator'] as Fields)['value'] === '~') {
    return text(pythonString(evaluate(fields['left'] as Node)) + pythonString(evaluate(fields['right'] as Node)));
  }
  const filter = filterOf(node);
  if (filter?.name === 'string' && filter.args.length === 0) {
    const value = evaluate(fields['operand'] as Node);
    return value.type === 'StringValue' ? value : text(pythonString(value));
  }
  if (filter?.name !== 'join' || filter.args.length > 1 || filter.args.some((arg) => arg.type === 'KeywordArgumentExpression'))
    return undefined;
  const value = evaluate(fields['operand'] as Node);
  const items =
    value.type === 'StringValue'
      ? [...(value.value as string)]
      : Array.isArray(value.value)
        ? (value.value as RuntimeValue[]).map(pythonString)
        : undefined;
  if (items === undefined) return undefined;
  const [separator] = filter.args;
  return text(items.join(separator === undefined ? '' : pythonString(evaluate(separator))));
};
