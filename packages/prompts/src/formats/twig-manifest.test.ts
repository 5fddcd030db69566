import { describe, expect, it } from 'vitest';
import { normalizeLibraryName, parseTwigManifest } from './twig-manifest.js';

const file = '/libs/git/twig.toml';

describe('normalizeLibraryName', () => {
  it.each([
    ['Git', 'git'],
    ['My Prompts--2', 'my_prompts_2'],
    ['__Docs & Notes!__', 'docs_notes'],
    ['Café', 'caf'],
  ])('%s → %s', (raw, normalized) => {
    expect(normalizeLibraryName(raw)).toBe(normalized);
  });
});

describe('parseTwigManifest', () => {
  it('reads prompt descriptions and arguments', () => {
    const manifest = parseTwigManifest(
      [
        '[prompts.commit]',
        'description = "Write a commit message"',
        '[[prompts.commit.arguments]]',
        'name = "diff"',
        'description = "The staged diff"',
        'required = true',
        '[[prompts.commit.arguments]]',
        'name = "style"',
      ].join('\n'),
      file,
      'Git Tools',
    );
    expect(manifest.name).toBe('git_tools');
    expect(manifest.prompts.get('commit')).toEqual({
      description: 'Write a commit message',
      arguments: [
        { name: 'diff', description: 'The staged diff', required: true },
        { name: 'style', required: false },
      ],
    });
  });

  it('lets a top-level name override the folder name', () => {
    expect(parseTwigManifest('name = "Team Docs"\n', file, 'git').name).toBe('team_docs');
  });

  it('reports TOML syntax errors with the line', () => {
    expect(() => parseTwigManifest('[prompts.a]\ndescription = \n', file, 'git')).toThrow(`${file}:2: invalid TOML`);
  });

  it("shows the parser's snippet with a caret under the mistake", () => {
    expect(() => parseTwigManifest('[prompts.a]\ndescription = unquoted\n', file, 'git')).toThrow(
      /:2: invalid TOML: invalid value\n {4}1: {2}\[prompts\.a\]\n {4}2: {2}description = unquoted\n {22}\^$/,
    );
  });

  it('reports wrong types with the line of the prompt table', () => {
    expect(() => parseTwigManifest('\n[prompts.a]\ndescription = 3\n', file, 'git')).toThrow(
      `${file}:2: prompts.a.description must be a string, not the number 3`,
    );
    expect(() => parseTwigManifest('[prompts.a]\n[[prompts.a.arguments]]\nname = "x"\nrequired = "yes"\n', file, 'git')).toThrow(
      'prompts.a.arguments[0].required must be true or false',
    );
  });

  it('rejects a name with no letters or digits', () => {
    expect(() => parseTwigManifest('name = "***"\n', file, 'git')).toThrow(`${file}:1: the library name "***" has no letters or digits`);
  });
});
