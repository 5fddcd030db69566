/**
 * A generated library in every format discovery serves, shaped like the files people publish (see
 * apps/server/test/native-fixtures.ts): Claude Code commands and skills, Copilot prompt files,
 * Continue prompts (Markdown and legacy `.prompt`), Gemini CLI commands (TOML), spec-kit command
 * templates and Prompty files (Jinja and Mustache) in a project, Codex prompts in the home folder.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const words = 'review commit refactor test deploy document translate summarise explain migrate plan debug profile secure'.split(' ');
const word = (index: number): string => words[index % words.length] as string;

/** A paragraph of ~`length` characters, different for each seed. */
const body = (seed: number, length = 600): string => {
  let text = '';
  for (let index = seed; text.length < length; index += 7) text += `${word(index)} the ${word(index * 3)} carefully; `;
  return text;
};

/** The file makers of each format: relative path and text of file `index`. */
const shapes: readonly ((index: number) => readonly [string, string])[] = [
  (index) => [
    `.claude/commands/group-${index % 5}/cmd-${index}.md`,
    `---\ndescription: ${word(index)} command ${index}\nargument-hint: [target] [priority]\nallowed-tools: Bash(git:*)\n---\nFix issue #$0 with priority $1 ($5.00 budget).\n\n!\`git status --short\`\n\n${body(index)}\n`,
  ],
  (index) => [
    `.claude/skills/skill-${index}/SKILL.md`,
    `---\nname: skill-${index}\ndescription: ${word(index)} skill ${index}\narguments: [issue, severity]\n---\nTriage $issue as $severity.\n\n${body(index)}\n`,
  ],
  (index) => [
    `.github/prompts/area-${index % 4}/form-${index}.prompt.md`,
    `---\ndescription: '${word(index)} a form ${index}'\nagent: agent\ntools: ['edit', 'search']\n---\nCreate a form named \${input:formName:MyForm} in \${workspaceFolder}.\n\n\`\`\`jsx\n<input value={{ value }} />\n\`\`\`\n${body(index)}\n`,
  ],
  (index) => [
    `.continue/prompts/explain-${index}.md`,
    `---\nname: Explain ${index}\ndescription: Explain the selected code (${word(index)})\ninvokable: true\n---\nExplain the code step by step.\n\n${body(index)}\n`,
  ],
  (index) => [
    `.continue/prompts/legacy-${index}.prompt`,
    `name: Legacy ${index}\ndescription: Ask a question\n---\n<system>\nYou answer in one line.\n</system>\n{{{ input }}}\n${body(index, 300)}\n`,
  ],
  (index) => [
    `.gemini/commands/ns-${index % 4}/cmd-${index}.toml`,
    `description = "${word(index)} command ${index}"\nprompt = """\nWrite a commit message for: {{args}}\n\n${body(index)}\n"""\n`,
  ],
  (index) => [
    `templates/commands/cmd-${index}.md`,
    `---\ndescription: ${word(index)} plan ${index}\nhandoffs:\n  - label: Tasks\n    agent: speckit.tasks\nscripts:\n  sh: scripts/bash/setup-plan.sh --json\n---\n## User Input\n\n\`\`\`text\n$ARGUMENTS\n\`\`\`\n\nRun {SCRIPT} with {ARGS}.\n${body(index)}\n`,
  ],
  (index) => [
    `prompts/jinja/greet-${index}.prompty`,
    `---\nname: Greeting ${index}\ndescription: Greet someone (${word(index)})\ninputs:\n  - name: firstName\n    required: true\n  - name: tone\n    default: friendly\n---\nsystem:\nYou are {{ tone }}.{# internal note #}\n{% if tone == 'formal' %}Be brief.{% endif %}\n\nuser:\nSay hello to {{ firstName | default('friend') }}.\n${body(index, 300)}\n`,
  ],
  (index) => [
    `prompts/mustache/note-${index}.prompty`,
    `---\nname: Note ${index}\ndescription: A Mustache note ${index}\ntemplate: mustache\ninputs:\n  firstName: Jane\n---\nsystem:\nYou write notes.\n\nuser:\nHello {{firstName}}{{#tone}} in a {{tone}} tone{{/tone}}.\n${body(index, 300)}\n`,
  ],
];

/** Codex prompts live in the home folder only. */
const codexShape = (index: number): readonly [string, string] => [
  `.codex/prompts/prompt-${index}.md`,
  `---\ndescription: Codex ${word(index)} ${index}\nargument-hint: [branch] FILE=<path>\n---\nDraft a PR for branch $1 and $FILE; costs $$5.\n\n${body(index)}\n`,
];

export interface MixedLibrary {
  readonly project: string;
  readonly home: string;
  /** Files written, project and home together. */
  readonly files: number;
}

/** Writes (once per count) about `count` files, spread evenly over the formats, under `base`. */
export const writeMixedLibrary = async (base: string, count: number): Promise<MixedLibrary> => {
  const project = join(base, 'project');
  const home = join(base, 'home');
  const perShape = Math.ceil(count / (shapes.length + 1));
  const files = perShape * (shapes.length + 1);
  const marker = join(base, '.generated');
  if ((await readFile(marker, 'utf8').catch(() => '')) === String(files)) return { project, home, files };
  await rm(base, { recursive: true, force: true });
  const write = async (dir: string, [path, text]: readonly [string, string]): Promise<void> => {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  for (let index = 0; index < perShape; index++) {
    for (const shape of shapes) await write(project, shape(index));
    await write(home, codexShape(index));
  }
  await writeFile(marker, String(files));
  return { project, home, files };
};
