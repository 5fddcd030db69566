import { describe, expect, it } from 'vitest';
import { deriveDescription } from './derive-description.js';

describe('deriveDescription', () => {
  it('uses the first Markdown heading', () => {
    expect(deriveDescription('Intro line\n\n## Review the diff ##\n# Later', 'x')).toBe('Review the diff');
  });

  it('ignores headings inside code fences', () => {
    expect(deriveDescription('```sh\n# install\n```\n# Real title', 'x')).toBe('Real title');
  });

  it('falls back to the first non-empty line, trimmed', () => {
    expect(deriveDescription('\n\n   Summarise #this text  \nmore', 'x')).toBe('Summarise #this text');
  });

  it('cuts long descriptions to 200 characters', () => {
    expect(deriveDescription(`# ${'a'.repeat(300)}`, 'x')).toBe('a'.repeat(200));
  });

  it('names the prompt when the body is empty', () => {
    expect(deriveDescription(' \n\t\n', 'git/commit')).toBe('Prompt git/commit');
  });
});
