import type { RuntimeValue, ValueClasses } from './jinja-runtime.js';

/**
 * Operations @huggingface/jinja evaluates as JavaScript would, evaluated as Jinja2 does in Python:
 * `a ~ b`, `x | string` and `xs | join(sep)` with Python's `str` of each value (`True`, `None`,
 * `['a']`); `%` with the sign of the divisor; `capitalize` and `title` as Jinja2's; `first`,
 * `last`, `reverse` and `list` of a string or an empty list.
 */

type Fields = Readonly<Record<string, unknown>>;
type Node = { readonly type: string };
type Evaluate = (node: Node) => RuntimeValue;

/** Python's `str` of a value: `None` for none, nothing for an undefined one. */
const pythonString = (value: RuntimeValue): string =>
  value.type === 'NullValue' ? 'None' : value.type === 'UndefinedValue' ? '' : String(value);

/** The filter a filter expression applies: its name and call arguments. */
const filterOf = (node: Node): { name: string; args: readonly Node[] } | undefined => {
  const filter = (node as unknown as Fields)['filter'] as Fields | undefined;
  if (node.type !== 'FilterExpression' || filter === undefined) return undefined;
  const callee = filter['type'] === 'CallExpression' ? (filter['callee'] as Fields) : filter;
  if (callee['type'] !== 'Identifier') return undefined;
  return { name: String(callee['value']), args: filter['type'] === 'CallExpression' ? (filter['args'] as Node[]) : [] };
};

const isNumber = (value: RuntimeValue): boolean => value.type === 'IntegerValue' || value.type === 'FloatValue';

const binary = (node: Node, evaluate: Evaluate, values: ValueClasses): RuntimeValue | undefined => {
  const fields = node as unknown as Fields;
  const operator = (fields['operator'] as Fields)['value'];
  if (operator === '~')
    return new values.StringValue(pythonString(evaluate(fields['left'] as Node)) + pythonString(evaluate(fields['right'] as Node)));
  if (operator !== '%') return undefined;
  const [left, right] = [evaluate(fields['left'] as Node), evaluate(fields['right'] as Node)];
  if (!isNumber(left) || !isNumber(right) || right.value === 0) return undefined;
  const [a, b] = [left.value as number, right.value as number];
  const result = ((a % b) + b) % b;
  return left.type === 'IntegerValue' && right.type === 'IntegerValue' ? new values.IntegerValue(result) : new values.FloatValue(result);
};

/** Jinja2's `title`: each word (after `-`, white space or an opening bracket) capitalised. */
const title = (text: string): string =>
  text
    .split(/([-\s({[<]+)/)
    .filter((item) => item !== '')
    .map((item) => item.charAt(0).toUpperCase() + item.slice(1).toLowerCase())
    .join('');

const stringFilter = (name: string, text: string, values: ValueClasses): RuntimeValue | undefined => {
  const chars = [...text];
  switch (name) {
    case 'capitalize':
      return new values.StringValue(text.charAt(0).toUpperCase() + text.slice(1).toLowerCase());
    case 'title':
      return new values.StringValue(title(text));
    case 'reverse':
      return new values.StringValue(chars.reverse().join(''));
    case 'list':
      return new values.ArrayValue(chars.map((char) => new values.StringValue(char)));
    case 'first':
    case 'last': {
      const char = name === 'first' ? chars[0] : chars.at(-1);
      return char === undefined ? new values.UndefinedValue() : new values.StringValue(char);
    }
    default:
      return undefined;
  }
};

const listFilter = (name: string, items: readonly RuntimeValue[], values: ValueClasses): RuntimeValue | undefined => {
  switch (name) {
    case 'first':
      return items[0] ?? new values.UndefinedValue();
    case 'last':
      return items.at(-1) ?? new values.UndefinedValue();
    case 'reverse':
      return new values.ArrayValue([...items].reverse());
    case 'list':
      return new values.ArrayValue([...items]);
    default:
      return undefined;
  }
};

const joined = (value: RuntimeValue, separator: Node | undefined, evaluate: Evaluate, values: ValueClasses): RuntimeValue | undefined => {
  const items =
    value.type === 'StringValue'
      ? [...(value.value as string)]
      : Array.isArray(value.value)
        ? (value.value as RuntimeValue[]).map(pythonString)
        : undefined;
  if (items === undefined) return undefined;
  return new values.StringValue(items.join(separator === undefined ? '' : pythonString(evaluate(separator))));
};

const plainFilters: ReadonlySet<string> = new Set(['string', 'capitalize', 'title', 'reverse', 'list', 'first', 'last']);

/** The value of `node` as Jinja2 computes it, where the library's would differ; undefined elsewhere. */
export const pythonOperation = (node: Node, evaluate: Evaluate, values: ValueClasses): RuntimeValue | undefined => {
  if (node.type === 'BinaryExpression') return binary(node, evaluate, values);
  const filter = filterOf(node);
  if (filter === undefined || filter.args.some((arg) => arg.type === 'KeywordArgumentExpression')) return undefined;
  const operand = (node as unknown as Fields)['operand'] as Node;
  if (filter.name === 'join' && filter.args.length <= 1) return joined(evaluate(operand), filter.args[0], evaluate, values);
  if (!plainFilters.has(filter.name) || filter.args.length > 0) return undefined;
  const value = evaluate(operand);
  if (filter.name === 'string') return value.type === 'StringValue' ? value : new values.StringValue(pythonString(value));
  if (value.type === 'StringValue') return stringFilter(filter.name, value.value as string, values);
  if (value.type === 'ArrayValue') return listFilter(filter.name, value.value as RuntimeValue[], values);
  return undefined;
};
