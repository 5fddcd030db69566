import type { PromptArgument } from '@promptyard/core';
import { fileError } from '../file-error.js';
import { parseFrontmatter } from '../frontmatter.js';
import { isRecord } from '../value-shape.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput, type NativeSection } from './native-definition.js';
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
  const fallback = scalar(spec['default']);
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

/**
 * Prompty: YAML frontmatter with typed `inputs`; a Jinja body (rendered by the Jinja engine) split
 * into messages at `system:` / `user:` / `assistant:` lines. System sections become user messages.
 */
export const parsePromptyFormat = (input: NativeFileInput): NativeDefinition => {
  const { data, body, bodyLine } = parseFrontmatter(input.text, input.file);
  const declared = readInputs(Object.hasOwn(data, 'inputs') ? data['inputs'] : undefined, input.file);
  const sections: NativeSection[] = splitRoleSections(body).map((section) => {
    const template = input.jinja.compile(section.text, { file: input.file, lineOffset: bodyLine + section.lineOffset });
    return { role: section.role, variables: template.variables, render: (args) => template.render(args) };
  });
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
    meta: extraFields(data, ['description', 'name', 'inputs', 'sample']),
  };
};
