import { findKeyTypos, keyLine } from '../formats/frontmatter-typos.js';
import type { NativeFileInput } from './native-definition.js';
import { parseNativeFrontmatter } from './native-frontmatter.js';
import { findingAt, type ToolFinding } from './tool-findings.js';

/**
 * What VS Code (microsoft/vscode 01a59900) says about a `*.prompt.md` file, and what it does with
 * one that Promptyard does not do the same way, for `validate`. The header messages are VS Code's
 * own (promptSyntax/languageProviders/promptValidator.ts); VS Code marks them in the editor but
 * still runs the prompt, so they are warnings.
 */
const attributes = ['name', 'description', 'model', 'tools', 'mode', 'agent', 'argument-hint'];
const supported = 'agent, argument-hint, description, model, name, tools';

const isString = (value: unknown): value is string => typeof value === 'string';

/** VS Code's checks of one string attribute (`name`, `description`, `argument-hint`, `agent`). */
const stringAttribute = (data: Readonly<Record<string, unknown>>, key: string, empty: string): string | undefined => {
  if (!Object.hasOwn(data, key)) return undefined;
  const value = data[key];
  if (!isString(value)) return `The '${key}' attribute must be a string.`;
  return value.trim() === '' ? empty : undefined;
};

const modelProblem = (value: unknown): string | undefined => {
  if (isString(value)) return value.trim() === '' ? "The 'model' attribute must be a non-empty string." : undefined;
  if (!Array.isArray(value)) return "The 'model' attribute must be a string or an array of strings.";
  if (value.length === 0) return "The 'model' array must not be empty.";
  if (!value.every(isString)) return "The 'model' array must contain only strings.";
  return value.some((item) => item.trim() === '') ? 'Model names in the array must be non-empty strings.' : undefined;
};

/** VS Code's header messages, each with the key it is about. */
const headerMessages = (data: Readonly<Record<string, unknown>>): [string, string][] => {
  const typos = new Set(findKeyTypos(data, 'copilot').map((typo) => typo.key));
  const messages: [string, string | undefined][] = Object.keys(data)
    .filter((key) => !attributes.includes(key) && !typos.has(key))
    .map((key) => [key, `Attribute '${key}' is not supported in prompt files. Supported: ${supported}.`]);
  messages.push(
    ['name', stringAttribute(data, 'name', "The 'name' attribute must not be empty.")],
    ['description', stringAttribute(data, 'description', "The 'description' attribute should not be empty.")],
    ['argument-hint', stringAttribute(data, 'argument-hint', "The 'argument-hint' attribute should not be empty.")],
  );
  const agentKey = Object.hasOwn(data, 'agent') ? 'agent' : 'mode';
  if (Object.hasOwn(data, 'mode')) {
    const deprecated =
      agentKey === 'agent'
        ? "The 'mode' attribute has been deprecated. The 'agent' attribute is used instead."
        : "The 'mode' attribute has been deprecated. Please rename it to 'agent'.";
    messages.push(['mode', deprecated]);
  }
  messages.push([agentKey, stringAttribute(data, agentKey, `The '${agentKey}' attribute must be a non-empty string.`)]);
  if (Object.hasOwn(data, 'model')) messages.push(['model', modelProblem(data['model'])]);
  if (Object.hasOwn(data, 'tools') && !Array.isArray(data['tools'])) messages.push(['tools', "The 'tools' attribute must be an array."]);
  return messages.filter((entry): entry is [string, string] => entry[1] !== undefined);
};

/** Keys VS Code runs the prompt with, which an MCP prompt cannot ask a client for. */
const runKeys = (text: string, data: Readonly<Record<string, unknown>>): ToolFinding[] => {
  const keys = ['agent', 'mode', 'tools', 'model'].filter((key) => Object.hasOwn(data, key));
  if (keys.length === 0) return [];
  const line = keyLine(text, keys[0] ?? '');
  return [
    {
      ...(line === undefined ? {} : { line }),
      message: `frontmatter ${keys.join(', ')}, with which VS Code picks the agent, its tools and the model, is not supported yet: an MCP prompt cannot choose them, so Promptyard keeps them in the prompt's _meta; set them in the client`,
    },
  ];
};

/** File links and `#file:`/`#tool:` references in the body, which VS Code resolves and attaches (promptFileParser.ts). */
const referenceFindings = (text: string, body: string): ToolFinding[] => {
  const found = new Map<string, string>();
  for (const match of body.matchAll(/\[(.*?)\]\((.+?)\)/g)) {
    const target = match[2] ?? '';
    if (body[match.index - 1] === '!' || /^[a-zA-Z][\w+.-]*:|^#/.test(target)) continue;
    found.set(match[0], 'a Markdown link to a file, which VS Code attaches to the request,');
  }
  for (const match of body.matchAll(/#file:[^\s#]+|#tool:[\w\-./]+/gi)) {
    const file = match[0].toLowerCase().startsWith('#file:');
    if (!found.has(match[0]))
      found.set(match[0], file ? 'a file VS Code attaches to the request,' : 'a tool VS Code enables for the request,');
  }
  return [...found].map(([construct, what]) =>
    findingAt(
      text,
      construct,
      `${construct}, ${what} is not supported yet: Promptyard sends it as written; put what the model needs in the prompt`,
    ),
  );
};

export const checkCopilotFile = (input: NativeFileInput): ToolFinding[] => {
  const { data, body } = parseNativeFrontmatter(input.text, input.file);
  return [
    ...headerMessages(data).map(([key, message]): ToolFinding => {
      const line = keyLine(input.text, key);
      return { message: `VS Code reports: ${message}`, ...(line === undefined ? {} : { line }) };
    }),
    ...runKeys(input.text, data),
    ...referenceFindings(input.text, body),
  ];
};

/** Added to the reason Promptyard refuses a prompt file for its header: VS Code itself would run it (promptFileParser.ts). */
export const copilotRefusalNote = (reason: string): string | undefined => {
  if (reason.startsWith('the frontmatter is never closed')) {
    return 'VS Code would run this file, reading everything after the first line as its header and the prompt as empty: that reading is not supported yet; add the closing --- line';
  }
  return /frontmatter/.test(reason)
    ? 'VS Code would run this file, marking the header error and sending the body: that reading is not supported yet; fix the YAML as said'
    : undefined;
};
