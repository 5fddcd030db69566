/**
 * The per-format checks `validate` shows for Gemini CLI, Codex and Claude Code. Upstream: gemini-cli 5411f113
 * `FileCommandLoader` (its schema: `prompt` and optional `description` strings; `AtFileProcessor`
 * inlines `@{path}`); openai/codex 035a9419 `custom_prompts.rs` (`discover_prompts_in` reads the
 * folder's own files only; `parse_frontmatter` reads `key: value` lines).
 */
import { describe, expect, it } from 'vitest';
import type { TemplateEngine } from '@promptyard/core';
import { checkClaudeFile, claudeRefusalNote } from './claude-checks.js';
import { checkCodexFile, codexRefusalNote } from './codex-checks.js';
import { checkGeminiFile } from './gemini-checks.js';

const jinja = {} as TemplateEngine;
const input = (path: string, text: string) => ({ text, file: `/p/${path}`, path, jinja });

describe('Gemini CLI checks', () => {
  it('a description that is not a string: Gemini skips the file', () => {
    expect(checkGeminiFile(input('a.toml', 'description = 3\nprompt = "Hi"\n'))).toEqual([
      {
        line: 1,
        message:
          'Gemini CLI skips this command file: its "description" must be a string; Promptyard serves the command without a description — quote the value',
      },
    ]);
  });

  it('@{path}: inlined by Gemini, a resource here', () => {
    expect(checkGeminiFile(input('a.toml', 'prompt = """\nRead @{docs/a.md}\n"""\n')).map((finding) => finding.line)).toEqual([2]);
    expect(checkGeminiFile(input('b.toml', 'prompt = "Hi {{args}}"\n'))).toEqual([]);
  });
});

describe('Codex checks', () => {
  it('a prompt in a subfolder is not one Codex offers', () => {
    expect(checkCodexFile(input('git/commit.md', 'Commit.'))).toHaveLength(1);
    expect(checkCodexFile(input('commit.md', 'Commit.'))).toEqual([]);
  });

  it('a file refused for its frontmatter is one Codex would load', () => {
    expect(codexRefusalNote('invalid YAML frontmatter: bad indentation')).toMatch(/^Codex would load this file/);
    expect(codexRefusalNote('the file is over the limit')).toBeUndefined();
  });
});

describe('Claude Code checks (anthropics/claude-code CHANGELOG.md at 5cfc0a19)', () => {
  it('a bare number as description: Claude Code reads it as text', () => {
    expect(checkClaudeFile(input('a.md', '---\ndescription: 3000\n---\nBody\n'))).toEqual([
      {
        line: 2,
        message:
          'description: 3000, which Claude Code reads as the text "3000", is ignored here: a description that is not a string is not supported yet; quote the value',
      },
    ]);
  });

  it('a file refused for its frontmatter is one Claude Code would load', () => {
    expect(claudeRefusalNote('invalid YAML frontmatter: the value of "description" contains ": "')).toMatch(
      /^Claude Code would load this file/,
    );
    expect(claudeRefusalNote('cannot read the file')).toBeUndefined();
  });
});
