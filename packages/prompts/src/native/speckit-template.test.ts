/**
 * Oracle for spec-kit command templates: `fixtures/speckit/*.expected.md` are the output of spec-kit's
 * own `process_template` (github/spec-kit 1.0.2.dev0, commit 27f50f7e) for its default install
 * (integration copilot, script sh); see fixtures/speckit/README.md. The unit cases beside them are
 * spec-kit's tests/integrations/test_base.py `TestResolveCommandRefs` (hyphen separator) and
 * tests/test_extensions.py `test_rewrite_project_relative_paths_preserves_extension_local_body_paths`.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createFakeLiquid } from '../test-helpers.js';
import { parseDollarFormat } from './dollar-formats.js';
import { fillSpeckitBody, filledMetaKey, rewriteProjectPaths } from './speckit-template.js';

const fixture = (name: string): Promise<string> => readFile(new URL(`fixtures/speckit/${name}`, import.meta.url), 'utf8');

/** The text after the frontmatter's closing line, as the served body holds it. */
const afterFrontmatter = (text: string): string => {
  if (!text.startsWith('---\n')) return text;
  const close = text.indexOf('\n---\n', 3);
  return text.slice(close + '\n---\n'.length);
};

const parse = (text: string, path = 'plan.md') =>
  parseDollarFormat('speckit', { text, path, file: `/templates/commands/${path}`, jinja: createFakeLiquid('jinja') });

describe('spec-kit templates as the default install writes them (oracle: spec-kit 27f50f7e)', () => {
  it.each(['full', 'ps-only', 'py-only', 'no-frontmatter', 'untouched'])('%s.md matches process_template', async (name) => {
    const definition = parse(await fixture(`${name}.md`), `${name}.md`);
    expect(definition.body).toBe(afterFrontmatter(await fixture(`${name}.expected.md`)));
  });

  it('says in _meta what was filled, and how', async () => {
    const definition = parse(await fixture('full.md'));
    expect(definition.meta[filledMetaKey]).toEqual({
      by: "spec-kit's default install (process_template for integration copilot, script sh)",
      '{SCRIPT}': 'scripts.sh',
      '{ARGS}': '$ARGUMENTS',
      __AGENT__: 'copilot',
      paths: 'scripts/, memory/, templates/ → .specify/…',
      '__SPECKIT_COMMAND_<NAME>__': '/speckit-<name>',
    });
    expect(parse(await fixture('untouched.md')).meta).not.toHaveProperty(filledMetaKey);
  });

  it('fills {ARGS} with the free text through $ARGUMENTS', async () => {
    const definition = parse(await fixture('full.md'));
    const text = await definition.sections[0]?.render({ arguments: 'Add dark mode' });
    expect(text).toContain('Run `.specify/scripts/bash/setup-plan.sh --json "Add dark mode"` from repo root');
    expect(text).toContain('Context: Add dark mode\n');
  });

  it('resolves __SPECKIT_COMMAND_<NAME>__ with "-" (test_base.py TestResolveCommandRefs)', () => {
    expect(fillSpeckitBody('', 'Run `__SPECKIT_COMMAND_PLAN__` to plan.').body).toBe('Run `/speckit-plan` to plan.');
    expect(fillSpeckitBody('', 'Run __SPECKIT_COMMAND_GIT_COMMIT__ to commit.').body).toBe('Run /speckit-git-commit to commit.');
    for (const text of [
      'Run __SPECKIT_COMMAND_PLAN to plan.',
      'Run __SPECKIT_COMMAND___ to plan.',
      'Run __SPECKIT_COMMAND_plan__ to plan.',
    ]) {
      expect(fillSpeckitBody('', text).body).toBe(text);
    }
  });

  it('rewrites top-level paths only (test_extensions.py preserves_extension_local_body_paths)', () => {
    const rewritten = rewriteProjectPaths('Read `.specify/extensions/test-ext/templates/spec.md`\nRun scripts/bash/setup-plan.sh\n', true);
    expect(rewritten).toContain('.specify/extensions/test-ext/templates/spec.md');
    expect(rewritten).toContain('.specify/scripts/bash/setup-plan.sh');
    expect(rewriteProjectPaths('scripts/a.sh', true)).toBe('.specify/scripts/a.sh');
    expect(rewriteProjectPaths('scripts/a.sh', false)).toBe('scripts/a.sh');
  });
});
