import type { NativeFileInput } from './native-definition.js';
import { parseNativeFrontmatter } from './native-frontmatter.js';
import { findingAt, type ToolFinding } from './tool-findings.js';

/**
 * What Claude Code (anthropics/claude-code `CHANGELOG.md` at 5cfc0a19) does with a command or skill
 * file that Promptyard does not do the same way, for `validate`: it loads a description holding
 * `: ` (2.1.69), reads a bare number as text (the fix for #25837), and loads the body of a file
 * whose YAML frontmatter is malformed with empty metadata (2.1.186).
 */
export const checkClaudeFile = (input: NativeFileInput): ToolFinding[] => {
  const { data } = parseNativeFrontmatter(input.text, input.file);
  return ['name', 'description', 'argument-hint']
    .filter((key) => typeof data[key] === 'number' || typeof data[key] === 'boolean')
    .map((key) =>
      findingAt(
        input.text,
        `${key}:`,
        `${key}: ${String(data[key])}, which Claude Code reads as the text "${String(data[key])}", is ignored here: a ${key} that is not a string is not supported yet; quote the value`,
      ),
    );
};

/** Added to the reason Promptyard refuses a Claude file for its frontmatter: Claude Code itself would load it. */
export const claudeRefusalNote = (reason: string): string | undefined =>
  /frontmatter/.test(reason)
    ? 'Claude Code would load this file (since 2.1.186 it serves a SKILL.md whose frontmatter does not parse with empty metadata, and since 2.1.69 a description holding ": "): that reading is not supported yet; fix the YAML as said'
    : undefined;
