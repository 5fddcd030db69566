import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, runCli } from './harness.js';
import { homeFiles, projectFiles } from './native-fixtures.js';

afterEach(cleanup);

/** One mistake per file, each of a kind `validate` must find. */
const brokenProject: Record<string, string> = {
  'prompts/bad-yaml.md': '---\ndescription: [unclosed\n---\nBody\n',
  'prompts/unclosed-fence.md': '---\ndescription: never closed\nBody\n',
  'prompts/unused.md':
    '---\ndescription: Declares more than it uses\narguments:\n  - name: code\n    required: true\n  - name: style\n---\nReview {{ code }}\n',
  'prompts/undeclared.md':
    '---\ndescription: Uses more than it declares\narguments:\n  - name: code\n---\nReview {{ code }} for {{ audience }}\n',
  'prompts/bad-liquid.md': '---\ndescription: Broken tag\n---\nHello {% if %}\n',
};
const brokenNative: Record<string, string> = {
  '.gemini/commands/broken.toml': 'description = "x"\nprompt = """\nunterminated\n',
  '.gemini/commands/empty.toml': 'description = "no prompt"\n',
  'greet.prompty': '---\nname: Greet\ninputs:\n  - name: firstName\n  - name: unusedInput\n---\nuser:\nHi {{ firstName }} {{ lastName }}\n',
};

describe('promptyard-server validate, list and render', () => {
  it('validate reports every seeded mistake with file and line and exits non-zero', async () => {
    const project = await makeFolder({ ...brokenProject, 'promptyard.toml': '[prompts]\nfolders = ["prompts"]\n' });
    const result = await runCli(['validate', '--config', 'promptyard.toml'], { cwd: project });
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^prompts\/bad-yaml\.md:\d+: error: invalid YAML frontmatter/),
        expect.stringMatching(/^prompts\/unclosed-fence\.md:1: error: the frontmatter is never closed/),
        expect.stringMatching(/^prompts\/unused\.md:6: warning: argument "style" is declared but never used/),
        expect.stringMatching(/^prompts\/undeclared\.md:6: warning: "audience" is used but not declared/),
        expect.stringMatching(/^prompts\/bad-liquid\.md:4: error: invalid value expression/),
      ]),
    );
    expect(lines).toHaveLength(5);
    expect(result.stderr).toMatch(/3 errors, 2 warnings/);
  });

  it('validate names both files of a prompt name two files claim, and what twig.toml declares without a file', async () => {
    const project = await makeFolder({
      'prompts/x.md': 'One\n',
      'prompts/x.prompty': '---\nname: X\n---\nuser:\nTwo\n',
      'prompts/lib/twig.toml': '[prompts.ghost]\ndescription = "Nobody wrote me"\n',
      'prompts/lib/prompts/real.md': 'Real\n',
      'promptyard.toml': '[prompts]\nfolders = ["prompts"]\n',
    });
    const result = await runCli(['validate', '--config', 'promptyard.toml'], { cwd: project });
    expect(result.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^prompts\/lib\/twig\.toml: warning: declares prompt "ghost" but prompts\/ghost\.md is missing$/),
      expect.stringMatching(
        /^prompts\/x\.prompty: warning: prompt "x" is also defined in \S+\/prompts\/x\.md, which is served \(the first file by path\)$/,
      ),
    ]);
    expect(result.code).toBe(0);
    const strict = await runCli(['validate', '--strict', '--config', 'promptyard.toml'], { cwd: project });
    expect(strict.code).toBe(1);
  });

  it('validate checks discovered native formats too', async () => {
    const project = await makeFolder(brokenNative);
    const home = await makeFolder({});
    const result = await runCli(['validate'], { cwd: project, env: { PROMPTYARD_HOME: home } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\.gemini\/commands\/broken\.toml:\d+: error: invalid TOML/m);
    expect(result.stdout).toMatch(/^\.gemini\/commands\/empty\.toml:1: error: a Gemini command needs a "prompt" string/m);
    expect(result.stdout).toMatch(/^greet\.prompty:5: warning: input "unusedInput" is declared but the prompt never uses it/m);
    expect(result.stdout).toMatch(/^greet\.prompty:8: warning: "lastName" is used but not declared in inputs/m);
  });

  it('validate exits 0 on a clean set', async () => {
    const project = await makeFolder(projectFiles);
    const home = await makeFolder(homeFiles);
    const result = await runCli(['validate'], { cwd: project, env: { PROMPTYARD_HOME: home } });
    expect(result.stdout).not.toMatch(/error:/);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/15 prompts from \d+ sources; 0 errors/);
  });

  it('list prints one card per prompt and render prints a rendered prompt', async () => {
    const project = await makeFolder(projectFiles);
    const home = await makeFolder(homeFiles);
    const env = { PROMPTYARD_HOME: home };
    const list = await runCli(['list'], { cwd: project, env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('prompty:prompts/greet(firstName, tone?) — Greet someone\n');
    expect(list.stdout.trim().split('\n')).toHaveLength(15);
    const render = await runCli(['render', 'claude:git/fix-issue', '--arg', 'issue=7', '--arg', 'priority=low'], { cwd: project, env });
    expect(render.code).toBe(0);
    expect(render.stdout).toMatch(/^\[user\]\nFix issue #7 with priority low\./);
    expect(render.stdout).toContain('[resource file://');
    const missing = await runCli(['render', 'copilot:react-form'], { cwd: project, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/missing required argument "formName"/);
    const bad = await runCli(['render', 'x', '--arg', 'novalue'], { cwd: project, env });
    expect(bad.code).toBe(2);
  });
});
