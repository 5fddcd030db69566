/** Prompts as users of each tool write them: code blocks with `{{ }}`, nesting, unicode, CRLF, a BOM. */
export const projectFiles: Record<string, string> = {
  '.claude/commands/git/fix-issue.md': [
    '\uFEFF---',
    'description: Fix a GitHub issue',
    'argument-hint: [issue] [priority]',
    'allowed-tools: Bash(git:*)',
    '---',
    // Claude Code ≥ 2.1.19 counts from $0 (`$1` is the second word).
    'Fix issue #$0 with priority $1.',
    '',
    'Current status: !`git status --short`',
    '',
    '```ts',
    'const greeting = `{{ name }}`; // a template literal, not ours',
    '```',
    'Follow @docs/style.md.',
    '',
  ].join('\r\n'),
  '.claude/commands/review.md': '---\ndescription: Review the change\n---\nReview $ARGUMENTS carefully. Ünïcödé ✓\n',
  '.claude/skills/release-notes/SKILL.md':
    '---\nname: release-notes\ndescription: Draft release notes\n---\nDraft release notes for $ARGUMENTS.\n',
  '.claude/skills/triage/SKILL.md':
    '---\nname: triage\ndescription: Triage an issue\narguments: [issue, severity]\n---\nTriage issue $issue as $severity.\n',
  '.github/prompts/react-form.prompt.md': [
    '---',
    "description: 'Create a React form'",
    'agent: agent',
    "tools: ['edit', 'search']",
    '---',
    'Create a form named ${input:formName:MyForm} in ${workspaceFolder}.',
    '',
    '```jsx',
    '<input value={{ value }} />',
    '```',
    '',
  ].join('\n'),
  '.continue/prompts/explain.md':
    '---\nname: Explain code\ndescription: Explain the selected code\ninvokable: true\n---\nExplain the code step by step.\n',
  '.continue/prompts/legacy.prompt':
    'name: Legacy\ndescription: Ask a question\n---\n<system>\nYou answer in one line.\n</system>\n{{{ input }}}\n',
  '.gemini/commands/git/commit.toml':
    'description = "Write a commit message"\nprompt = """\nWrite a commit message for: {{args}}\n\n!{git diff --staged}\n"""\n',
  '.gemini/commands/summarize.toml': "description = 'Summarise'\nprompt = 'Summarise @{docs/style.md} briefly.'\n",
  'templates/commands/plan.md':
    '---\ndescription: Create a plan\nhandoffs:\n  - label: Tasks\n    agent: speckit.tasks\nscripts:\n  sh: scripts/bash/setup-plan.sh --json\n---\n## User Input\n\n```text\n$ARGUMENTS\n```\n',
  'prompts/greet.prompty': [
    '---',
    'name: Greeting',
    'description: Greet someone',
    'inputs:',
    '  - name: firstName',
    '    required: true',
    '  - name: tone',
    '    default: friendly',
    '    enumValues: [friendly, formal, pirate]',
    '---',
    'system:',
    'You are {{ tone }}.{# internal note #}',
    '',
    'user:',
    "Say hello to {{ firstName | default('friend') }}.",
    '',
  ].join('\n'),
  'docs/style.md': '# Style\nUse short sentences.\n',
  '.env': 'SECRET=never-served\n',
};

export const homeFiles: Record<string, string> = {
  '.claude/commands/review.md': '---\ndescription: Home review (shadowed by the project)\n---\nHome review $ARGUMENTS\n',
  '.claude/commands/personal.md': 'Personal command: $ARGUMENTS\n',
  '.codex/prompts/draft-pr.md': '---\ndescription: Draft a PR\nargument-hint: [branch]\n---\nDraft a PR for branch $1; costs $$5.\n',
  '.gemini/commands/deploy.toml': 'prompt = "Deploy the service."\n',
  '.continue/prompts/résumé.md': '---\ndescription: Polish a résumé\n---\nPolish this résumé.\n',
};
