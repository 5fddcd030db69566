/**
 * Prompty's inputs as arguments, in the forms its loaders accept:
 * - v2 (microsoft/prompty at 75e4d0e5, model/agent.ts `loadInputs`, model/contracts/core/property.ts):
 *   `inputs:` a list of `{ name, kind, description, required, default, enumValues }`, or a mapping of
 *   name → such a mapping;
 * - the v2 preview's `inputSchema: { properties: … }` (renamed `inputs` in e2368d11);
 * - v1 (runtime/prompty/prompty/core.py at a4ef7e06, `load_input_property`): name → a sample value,
 *   whose JSON type is the input's type (`chat_history: []` is a list), or a mapping with `type` (or a
 *   `sample` to infer it from); a mapping with none of an input's keys is itself the sample, an object
 *   (`customer: { firstName: Sally }`), as v1's C# loader reads it (runtime/promptycs/Prompty.Core/Prompty.cs
 *   `IsInput` at 449b80dd^: a mapping is an input definition when it has `type`, `default`, `sample` or
 *   `description`).
 * An input of a JSON type (a list, a mapping, a number, a boolean, a thread) takes its value as JSON text.
 */
import type { PromptArgument } from '@promptyard/core';
import { fileError } from '../formats/file-error.js';
import { findKeyTypos, type KeyTypo } from '../formats/frontmatter-typos.js';
import { isRecord } from '../formats/value-shape.js';

export interface PromptyInputs {
  readonly declared: readonly PromptArgument[];
  /** The inputs whose values are JSON, by name. */
  readonly json: readonly string[];
  /** The `kind: thread` inputs, by name: their messages are spliced in where the template writes them. */
  readonly threads: readonly string[];
  readonly typos: readonly KeyTypo[];
  /** The frontmatter key the inputs came from (`inputs` or `inputSchema`), when one did. */
  readonly key?: string;
}

/** Prompty's input kinds (v2) and types (v1) whose values are JSON (a list to loop over, a number to compare). */
const jsonKinds: ReadonlySet<string> = new Set(['array', 'object', 'list', 'number', 'integer', 'float', 'boolean', 'thread']);

const scalar = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

/** v1's `get_json_type`: the type a sample value gives its input. */
const sampleKind = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? 'string'
    : typeof value === 'number'
      ? 'number'
      : typeof value === 'boolean'
        ? 'boolean'
        : Array.isArray(value)
          ? 'array'
          : isRecord(value)
            ? 'object'
            : undefined;

/** A value as a caller would pass it: text as is, anything else as JSON. */
const asArgumentText = (value: unknown): string | undefined =>
  scalar(value) ?? (Array.isArray(value) || isRecord(value) ? JSON.stringify(value) : undefined);

/** The keys that make a mapping an input's definition (v1 and v2); a mapping without any is a sample object. */
const inputKeys = ['type', 'kind', 'default', 'sample', 'example', 'description', 'required', 'enumValues'];

interface ReadInput {
  readonly argument: PromptArgument;
  readonly json: boolean;
  readonly thread?: boolean;
}

/** An input from a list (always a definition) or a mapping's entry (a definition, or a sample). */
const readInput = (name: string, spec: unknown, inList = false): ReadInput => {
  if (!isRecord(spec) || (!inList && !inputKeys.some((key) => Object.hasOwn(spec, key)))) {
    // v1 shorthand `firstName: Jane`, `chat_history: []`, `customer: { firstName: Sally }`: the sample
    // gives the type, and is the default.
    const example = asArgumentText(spec);
    const argument = { name, required: false, ...(example === undefined ? {} : { default: example }) };
    return { argument, json: jsonKinds.has(sampleKind(spec) ?? '') };
  }
  const kind = scalar(spec['kind']) ?? scalar(spec['type']) ?? sampleKind(spec['sample']);
  const description = scalar(spec['description']);
  const fallback = asArgumentText(spec['default']);
  const values = Array.isArray(spec['enumValues']) ? spec['enumValues'].map(scalar).filter((value) => value !== undefined) : undefined;
  const argument = {
    name,
    required: spec['required'] === true && fallback === undefined,
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    ...(values === undefined || values.length === 0 ? {} : { enum: values }),
  };
  const lower = kind?.toLowerCase();
  return { argument, json: lower !== undefined && jsonKinds.has(lower), ...(lower === 'thread' ? { thread: true } : {}) };
};

const readList = (inputs: unknown, file: string, key: string): [string, ReadInput][] => {
  if (inputs === undefined || inputs === null) return [];
  if (Array.isArray(inputs)) {
    return inputs.map((spec, index) => {
      const name = isRecord(spec) ? scalar(spec['name']) : undefined;
      if (name === undefined) throw fileError(file, `${key}[${index}] needs a "name"`);
      return [`${key}[${index}].`, readInput(name, spec, true)];
    });
  }
  if (isRecord(inputs)) return Object.entries(inputs).map(([name, spec]) => [`${key}.${name}.`, readInput(name, spec)]);
  throw fileError(file, `"${key}" must be a list of { name, kind, description, required, default } or a mapping`);
};

/** Where the inputs are: `inputs`, else the v2 preview's `inputSchema.properties`. */
const inputsOf = (data: Readonly<Record<string, unknown>>): [string, unknown] | undefined => {
  if (Object.hasOwn(data, 'inputs')) return ['inputs', data['inputs']];
  const schema = Object.hasOwn(data, 'inputSchema') ? data['inputSchema'] : undefined;
  return isRecord(schema) && Object.hasOwn(schema, 'properties') ? ['inputSchema', schema['properties']] : undefined;
};

/** The declared inputs, which of them take JSON, and typos among the frontmatter's and the inputs' keys. */
export const readPromptyInputs = (data: Readonly<Record<string, unknown>>, file: string): PromptyInputs => {
  const found = inputsOf(data);
  const items = found === undefined ? [] : readList(found[1], file, found[0]);
  const specs = found === undefined ? [] : Array.isArray(found[1]) ? found[1] : isRecord(found[1]) ? Object.values(found[1]) : [];
  return {
    declared: items.map(([, input]) => input.argument),
    json: items.filter(([, input]) => input.json).map(([, input]) => input.argument.name),
    threads: items.filter(([, input]) => input.thread === true).map(([, input]) => input.argument.name),
    typos: [
      ...findKeyTypos(data, 'prompty'),
      ...items.flatMap(([path], index) => {
        const spec: unknown = specs[index];
        return isRecord(spec) ? findKeyTypos(spec, 'prompty-input', path) : [];
      }),
    ],
    ...(found === undefined ? {} : { key: found[0] }),
  };
};
