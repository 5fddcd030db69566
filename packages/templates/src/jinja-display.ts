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
