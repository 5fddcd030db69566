import type { PromptArgument } from '@promptyard/core';
import { parseNativeFrontmatter } from './native-frontmatter.js';
import { compileInputDialect } from './input-dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput } from './native-definition.js';

/** Copilot / VS Code `*.prompt.md`: `${input:name}` placeholders become required arguments. */
export const parseCopilotFormat = (input: NativeFileInput): NativeDefinition => {
  const { data, body } = parseNativeFrontmatter(input.text, input.file);
  const template = compileInputDialect(body);
  const args = template.variables.map((name): PromptArgument => {
    const placeholder = template.placeholders.get(name);
    return { name, required: true, ...(placeholder === undefined ? {} : { description: placeholder }) };
  });
  const description = stringField(data, 'description');
  const title = stringField(data, 'name');
  return {
    id: stripExtension(input.path, '.prompt.md'),
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    arguments: args,
    declared: [],
    sections: [{ role: 'user', variables: template.variables, render: async (values) => template.render(values) }],
    body,
    meta: extraFields(data, ['description', 'name']),
  };
};
