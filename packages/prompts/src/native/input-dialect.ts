import { argumentValue, type DialectTemplate } from './dialect.js';

/** What VS Code fills each editor variable of a prompt file with; over MCP they are optional arguments. */
export const editorVariables: Readonly<Record<string, string>> = {
  selection: 'The text selected in the editor',
  selectedText: 'The text selected in the editor',
  file: 'The full path of the file open in the editor',
  fileBasename: 'The name of the file open in the editor (app.ts)',
  fileBasenameNoExtension: 'The name of the file open in the editor, without its extension (app)',
  fileDirname: 'The folder of the file open in the editor',
  workspaceFolder: 'The full path of the workspace folder',
  workspaceFolderBasename: 'The name of the workspace folder',
};

/** Copilot / VS Code `${input:name}`, `${input:name:placeholder}` and the editor variables (`${file}`). */
const pattern = /\$\{(?:input:([A-Za-z_][\w-]*)(?::([^}]*))?|([A-Za-z]+))\}/g;

export interface InputDialectTemplate extends DialectTemplate {
  /** The placeholder text each input was first given with: its description. */
  readonly placeholders: ReadonlyMap<string, string>;
  /** Names that come from `${input:…}`, as opposed to editor variables. */
  readonly inputs: readonly string[];
}

type Part = string | { readonly name: string };

/** `${…}` that is neither an input nor a known editor variable stays verbatim. */
export const compileInputDialect = (body: string): InputDialectTemplate => {
  const parts: Part[] = [];
  const variables: string[] = [];
  const inputs: string[] = [];
  const placeholders = new Map<string, string>();
  let last = 0;
  for (const match of body.matchAll(pattern)) {
    const [whole, input, placeholder, editor] = match;
    if (editor !== undefined && !Object.hasOwn(editorVariables, editor)) continue;
    const name = input ?? editor ?? '';
    parts.push(body.slice(last, match.index), { name });
    last = match.index + whole.length;
    if (!variables.includes(name)) variables.push(name);
    if (input !== undefined && !inputs.includes(name)) inputs.push(name);
    if (placeholder !== undefined && placeholder.trim() !== '' && !placeholders.has(name)) placeholders.set(name, placeholder.trim());
  }
  parts.push(body.slice(last));
  return {
    variables,
    inputs,
    placeholders,
    render: (args) => parts.map((part) => (typeof part === 'string' ? part : (argumentValue(args, part.name) ?? ''))).join(''),
  };
};
