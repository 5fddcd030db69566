import type { PromptArgument } from '@promptyard/core';
import { parseNativeFrontmatter } from './native-frontmatter.js';
import { compileInputDialect, editorVariables } from './input-dialect.js';
import { extraFields, stringField, stripExtension, type NativeDefinition, type NativeFileInput } from './native-definition.js';
import { findUnfilled } from './unfilled.js';
import { findKeyTypos } from '../formats/frontmatter-typos.js';

/** Any `${…}`: what the input dialect does not take is reported by `validate`. */
const anyVariable = /\$\{[^}\s]*\}/g;

/**
 * Copilot / VS Code `*.prompt.md`: `${input:name}` placeholders become required arguments, editor
 * variables (`${selection}`, `${file}`…) optional ones named after the variable.
 */
export const parseCopilotFormat = (input: NativeFileInput): NativeDefinition => {
  const { data, body } = parseNativeFrontmatter(input.text, input.file);
  const template = compileInputDialect(body);
  const args = template.variables.map((name): PromptArgument => {
    if (!template.inputs.includes(name)) {
      return { name, description: `${editorVariables[name] ?? name}, which the editor fills in for \${${name}}`, required: false };
    }
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
    unfilled: findUnfilled(body, anyVariable, (placeholder) => compileInputDialect(placeholder).variables.length > 0),
    typos: findKeyTypos(data, 'copilot'),
    meta: extraFields(data, ['description', 'name']),
  };
};
