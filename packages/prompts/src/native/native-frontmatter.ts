import { parseFrontmatter, type Frontmatter } from '../formats/frontmatter.js';

/**
 * Frontmatter as these tools read it. Claude Code, Codex and Copilot users write
 * `argument-hint: [pr-number] [priority]`, which strict YAML rejects (a flow sequence followed by
 * text) or reads as a list; those tools read it as a string, so the value is quoted before parsing.
 */
export const parseNativeFrontmatter = (text: string, file: string): Frontmatter => {
  // Only inside the frontmatter: the body stays verbatim.
  const end = text.startsWith('---') ? text.indexOf('\n---', 3) : -1;
  if (end === -1) return parseFrontmatter(text, file);
  const head = text
    .slice(0, end)
    .replace(/^(argument-hint:[ \t]*)(\[[^\n]*?)[ \t]*$/m, (_whole, key: string, value: string) => `${key}${JSON.stringify(value)}`);
  return parseFrontmatter(head + text.slice(end), file);
};
