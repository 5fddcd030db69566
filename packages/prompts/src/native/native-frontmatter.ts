import { parseFrontmatter, type Frontmatter } from '../frontmatter.js';

/**
 * Frontmatter as these tools read it. Claude Code, Codex and Copilot users write
 * `argument-hint: [pr-number] [priority]`, which strict YAML rejects (a flow sequence followed by
 * text) or reads as a list; those tools read it as a string, so the value is quoted before parsing.
 */
export const parseNativeFrontmatter = (text: string, file: string): Frontmatter =>
  parseFrontmatter(
    text.replace(/^(argument-hint:[ \t]*)(\[[^\n]*?)[ \t]*$/m, (_whole, key: string, value: string) => `${key}${JSON.stringify(value)}`),
    file,
  );
