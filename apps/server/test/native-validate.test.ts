/**
 * `validate` on a small library mixing the native formats: each file a tool refuses, with the
 * tool's reason, and each construct a tool reads differently from Promptyard, as a warning saying
 * so. Upstream: continuedev/continue d0a3c0b6 (parsePromptFile.ts, renderPromptv1.ts,
 * loadMarkdownRules.ts), microsoft/vscode 01a59900 (promptValidator.ts, promptFileParser.ts),
 * google-gemini/gemini-cli 5411f113 (FileCommandLoader.ts), openai/codex 035a9419
 * (custom_prompts.rs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, runCli } from './harness.js';

afterEach(cleanup);

const project: Record<string, string> = {
  '.claude/commands/ok.md': '---\ndescription: Fine\n---\nFix $ARGUMENTS\n',
  '.claude/commands/colon.md': '---\ndescription: Triggers include: X, Y\n---\nFix $ARGUMENTS\n',
  '.continue/prompts/context.prompt': 'version: 1\n---\nReview {{{ diff }}} for {{{ input }}}\n',
  '.continue/prompts/unclosed.prompt': 'name: x\n---\n<system>\nBe terse.\n',
  '.continue/prompts/style.md': '---\nname: Style\n---\nUse tabs.\n',
  '.github/prompts/guide.prompt.md': '---\nmode: ask\n---\nFollow [the guide](../docs/guide.md).\n',
  '.gemini/commands/empty.toml': 'description = "No prompt"\n',
  '.gemini/commands/read.toml': 'description = 3\nprompt = "Read @{docs/a.md}"\n',
};

const codex: Record<string, string> = {
  'prompts/open.md': '---\ndescription: never closed\nDo it.\n',
  'prompts/git/commit.md': 'Commit $ARGUMENTS\n',
};

describe('validate on a mixed library', () => {
  it("reports each file a tool refuses with the tool's reason, and each difference as a warning", async () => {
    const folder = await makeFolder(project);
    const home = await makeFolder({});
    const codexHome = await makeFolder(codex);
    const result = await runCli(['validate'], { cwd: folder, env: { PROMPTYARD_HOME: home, CODEX_HOME: codexHome } });
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/^(\.\.\/)+[^/]*promptyard-e2e-\w+\//, '<codex>/'));
    // The two folders are temporary, so whether the Codex folder sorts first varies: compare as sets of lines.
    expect([...lines].sort()).toEqual(
      [
        '.claude/commands/colon.md:2: error: invalid YAML frontmatter: the value of "description" contains ": ", which YAML reads as a nested key: put the value in quotes, as in description: "Triggers include: X, Y"; Claude Code would load this file (since 2.1.186 it serves a SKILL.md whose frontmatter does not parse with empty metadata, and since 2.1.69 a description holding ": "): that reading is not supported yet; fix the YAML as said',
        '<codex>/prompts/git/commit.md:1: warning: Codex does not read prompts in subfolders of its prompts folder, so it offers no /prompts command for this file; Promptyard serves it — move it up a level to have both',
        '<codex>/prompts/open.md:1: error: the frontmatter is never closed: add a --- line after the YAML; Codex would load this file, reading its frontmatter as key: value lines: that reading is not supported yet; quote the value, or close the frontmatter with a --- line',
        '.continue/prompts/context.prompt:3: warning: {{{ diff }}}, which Continue fills from its diff context provider, is not supported yet: Promptyard sends it as written; put what the model needs in the prompt or in the arguments text',
        '.continue/prompts/style.md:1: warning: a Markdown prompt without invokable: true, which Continue also applies as a rule to its chats, is not supported yet as a rule: Promptyard serves it as a prompt only; add invokable: true if it is meant as a prompt',
        '.continue/prompts/unclosed.prompt: error: <system> is never closed, and Continue refuses such a prompt file: add a </system> line after the system message',
        '.gemini/commands/empty.toml:1: error: a Gemini command needs a "prompt" string',
        '.gemini/commands/read.toml:1: warning: Gemini CLI skips this command file: its "description" must be a string; Promptyard serves the command without a description — quote the value',
        ".gemini/commands/read.toml:2: warning: @{docs/a.md}, whose file Gemini CLI inlines into the prompt text, is embedded as a resource after the text: inlining is not supported yet; keep the reference where the file's place in the text does not matter",
        ".github/prompts/guide.prompt.md:2: warning: VS Code reports: The 'mode' attribute has been deprecated. Please rename it to 'agent'.",
        ".github/prompts/guide.prompt.md:2: warning: frontmatter mode, with which VS Code picks the agent, its tools and the model, is not supported yet: an MCP prompt cannot choose them, so Promptyard keeps them in the prompt's _meta; set them in the client",
        '.github/prompts/guide.prompt.md:4: warning: [the guide](../docs/guide.md), a Markdown link to a file, which VS Code attaches to the request, is not supported yet: Promptyard sends it as written; put what the model needs in the prompt',
      ].sort(),
    );
    expect(result.stderr).toBe('validate: 6 prompts from 6 sources; 4 errors, 8 warnings\n');
    expect(result.code).toBe(1);
  });
});
