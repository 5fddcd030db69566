import { argumentValue, type DialectTemplate } from './dialect.js';

/** Copilot / VS Code `${input:name}` and `${input:name:placeholder}`; editor variables (`${file}`) stay verbatim. */
const pattern = /\$\{input:([A-Za-z_][\w-]*)(?::([^}]*))?\}/g;

export interface InputDialectTemplate extends DialectTemplate {
  /** The placeholder text each input was first given with: its description. */
  readonly placeholders: ReadonlyMap<string, string>;
}

export const compileInputDialect = (body: string): InputDialectTemplate => {
  const parts = body.split(pattern);
  const variables: string[] = [];
  const placeholders = new Map<string, string>();
  // split() with two groups yields: text, name, placeholder, text, name, placeholder, …
  for (let index = 1; index < parts.length; index += 3) {
    const name = parts[index] ?? '';
    if (!variables.includes(name)) variables.push(name);
    const placeholder = parts[index + 1];
    if (placeholder !== undefined && placeholder.trim() !== '' && !placeholders.has(name)) placeholders.set(name, placeholder.trim());
  }
  return {
    variables,
    placeholders,
    render: (args) => {
      let text = '';
      for (let index = 0; index < parts.length; index += 3) {
        text += parts[index] ?? '';
        const name = parts[index + 1];
        if (name !== undefined) text += argumentValue(args, name) ?? '';
      }
      return text;
    },
  };
};
