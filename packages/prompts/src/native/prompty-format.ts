import { randomBytes } from 'node:crypto';
import type { PromptArgument } from '@promptyard/core';
import { fileError } from '../formats/file-error.js';
import { parseFrontmatter } from '../formats/frontmatter.js';
import { isRecord } from '../formats/value-shape.js';
import { findKeyTypos, type KeyTypo } from '../formats/frontmatter-typos.js';
import {
  extraFields,
  stringField,
  stripExtension,
  type NativeDefinition,
  type NativeFileInput,
  type NativeSection,
} from './native-definition.js';
import { splitRoleSections } from './role-sections.js';

const scalar = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

const readInput = (name: string, spec: unknown): PromptArgument => {
  if (!isRecord(spec)) {
    // v1 shorthand `inputs: { firstName: Jane }`: the value is an example, used as the default.
    const example = scalar(spec);
    return { name, required: false, ...(example === undefined ? {} : { default: example }) };
  }
  const description = scalar(spec['description']);
  const given = spec['default'];
  // A list or mapping default is passed as the JSON a caller would give for a typed input.
  const fallback = scalar(given) ?? (Array.isArray(given) || isRecord(given) ? JSON.stringify(given) : undefined);
  const values = Array.isArray(spec['enumValues']) ? spec['enumValues'].map(scalar).filter((value) => value !== undefined) : undefined;
  return {
    name,
    required: spec['required'] === true && fallback === undefined,
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    ...(values === undefined || values.length === 0 ? {} : { enum: values }),
  };
};

const readInputs = (inputs: unknown, file: string): PromptArgument[] => {
  if (inputs === undefined || inputs === null) return [];
  if (Array.isArray(inputs)) {
    return inputs.map((spec, index) => {
      const name = isRecord(spec) ? scalar(spec['name']) : undefined;
      if (name === undefined) throw fileError(file, `inputs[${index}] needs a "name"`);
      return readInput(name, spec);
    });
  }
  if (isRecord(inputs)) return Object.entries(inputs).map(([name, spec]) => readInput(name, spec));
  throw fileError(file, '"inputs" must be a list of { name, description, required, default } or a mapping');
};

/** Typos among the top-level keys and the keys of each input (`inputs[0].requried`, `inputs.firstName.requried`). */
const promptyTypos = (data: Readonly<Record<string, unknown>>, inputs: unknown): KeyTypo[] => {
  const items: [string, unknown][] = Array.isArray(inputs)
    ? inputs.map((spec, index): [string, unknown] => [`inputs[${index}].`, spec])
    : isRecord(inputs)
      ? Object.entries(inputs).map(([name, spec]): [string, unknown] => [`inputs.${name}.`, spec])
      : [];
  return [
    ...findKeyTypos(data, 'prompty'),
    ...items.flatMap(([path, spec]) => (isRecord(spec) ? findKeyTypos(spec, 'prompty-input', path) : [])),
  ];
};

/** Prompty's input types whose values are JSON (a list to loop over, a number to compare). */
const jsonTypes: ReadonlySet<string> = new Set(['array', 'object', 'list', 'number', 'integer', 'float', 'boolean']);

/** The inputs declared with a JSON type, by name. */
const typedInputs = (inputs: unknown): string[] => {
  const specs = Array.isArray(inputs)
    ? inputs.map((spec): [unknown, unknown] => [isRecord(spec) ? spec['name'] : undefined, spec])
    : isRecord(inputs)
      ? Object.entries(inputs)
      : [];
  return specs.flatMap(([name, spec]) =>
    typeof name === 'string' && isRecord(spec) && typeof spec['type'] === 'string' && jsonTypes.has(spec['type'].toLowerCase())
      ? [name]
      : [],
  );
};

const roleLines = /^([ \t]*)(system|user|assistant)([ \t]*:[ \t]*)$/gim;

/**
 * An argument's text with its role lines marked, so that a value cannot start a message of its
 * own; the marker is taken out of the messages again. A JSON argument is marked in its strings.
 */
const guardRoleLines = (value: string, marker: string, isJson: boolean): string => {
  const mark = (text: string): string => text.replace(roleLines, `$1${marker}$2$3`);
  if (!isJson || !/(system|user|assistant)[ \t]*:/i.test(value)) return mark(value);
  try {
    const walk = (item: unknown): unknown =>
      typeof item === 'string'
        ? mark(item)
        : Array.isArray(item)
          ? item.map(walk)
          : isRecord(item)
            ? Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]))
            : item;
    return JSON.stringify(walk(JSON.parse(value)));
  } catch {
    return mark(value);
  }
};

/**
 * Prompty: YAML frontmatter with typed `inputs`; a Jinja body (rendered by the Jinja engine) split
 * into messages at `system:` / `user:` / `assistant:` lines. System sections become user messages.
 */
export const parsePromptyFormat = (input: NativeFileInput): NativeDefinition => {
  const { data, body, bodyLine } = parseFrontmatter(input.text, input.file);
  const inputs = Object.hasOwn(data, 'inputs') ? data['inputs'] : undefined;
  const declared = readInputs(inputs, input.file);
  const jsonArguments = typedInputs(inputs);
  // As Prompty does: the whole body renders first, then its role lines split it into messages,
  // so a loop can write messages (`{% for item in history %}{{ item.role }}:`).
  const template = input.jinja.compile(body, {
    file: input.file,
    lineOffset: bodyLine,
    jsonArguments,
    root: input.file.slice(0, -input.path.length - 1),
  });
  const json = new Set(jsonArguments);
  const sections: NativeSection[] = [
    {
      role: 'system',
      variables: template.variables,
      render: async (args, options) => {
        const marker = `\uE000${randomBytes(6).toString('hex')}\uE000`;
        const guarded = Object.fromEntries(
          Object.entries(args).map(([name, value]) => [name, guardRoleLines(value, marker, json.has(name))]),
        );
        const text = await template.render(guarded, options);
        return splitRoleSections(text).map((part) => ({ role: part.role, text: part.text.replaceAll(marker, '') }));
      },
    },
  ];
  const names = new Set(declared.map((argument) => argument.name));
  const implied: PromptArgument[] = [];
  for (const section of sections) {
    for (const name of section.variables) {
      if (names.has(name)) continue;
      names.add(name);
      implied.push({ name, description: `Template variable "${name}"`, required: false });
    }
  }
  const description = stringField(data, 'description');
  const title = stringField(data, 'name');
  return {
    id: stripExtension(input.path, '.prompty'),
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    arguments: [...declared, ...implied],
    declared: declared.map((argument) => argument.name),
    sections,
    body,
    typos: promptyTypos(data, inputs),
    meta: extraFields(data, ['description', 'name', 'inputs', 'sample']),
  };
};
