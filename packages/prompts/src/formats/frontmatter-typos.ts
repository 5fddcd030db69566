/**
 * Frontmatter keys one or two letters away from a key the format reads (`argumnets:`): such a key is
 * kept as metadata and changes nothing, so a required argument silently becomes an optional one.
 * Each format has its own known keys — the ones it reads and the ones its tools document — and only
 * a key close to one of them is reported; a key far from all of them stays allowed, since tools add
 * their own.
 */
import { didYouMean, namesWithinEdits } from '@promptyard/core';

/** The keys each frontmatter-bearing format reads or documents. */
export const knownFrontmatterKeys = {
  /** Promptyard's Markdown prompts. */
  markdown: ['description', 'title', 'arguments', 'engine'],
  /** An item of a Markdown prompt's `arguments`. */
  'markdown-argument': ['name', 'title', 'description', 'required', 'default', 'enum'],
  /** Claude Code commands and skills, Codex prompts, spec-kit templates, and the keys apm and Agent Skills write into them. */
  dollar: [
    'description',
    'argument-hint',
    'allowed-tools',
    'disallowed-tools',
    'model',
    'disable-model-invocation',
    'name',
    'arguments',
    'user-invocable',
    'effort',
    'context',
    'agent',
    'hooks',
    'paths',
    'when_to_use',
    'license',
    'compatibility',
    'metadata',
    'version',
    'handoffs',
    'scripts',
    'agent_scripts',
    'input',
    'mode',
    'tools',
  ],
  /** Copilot / VS Code `*.prompt.md` (and apm's `input`). */
  copilot: ['description', 'name', 'argument-hint', 'agent', 'mode', 'model', 'tools', 'input'],
  /** Continue prompts, current (`*.md`) and legacy (`*.prompt`), and its rules. */
  continue: [
    'name',
    'description',
    'invokable',
    'version',
    'temperature',
    'topP',
    'topK',
    'minP',
    'presencePenalty',
    'frequencyPenalty',
    'mirostat',
    'stop',
    'maxTokens',
    'alwaysApply',
    'globs',
    'regex',
  ],
  /** Gemini CLI commands (TOML). */
  gemini: ['prompt', 'description'],
  /** Prompty, current and v1. */
  prompty: ['name', 'description', 'metadata', 'model', 'inputs', 'outputs', 'template', 'sample', 'authors', 'tags', 'version', 'base'],
  /** An item of Prompty's `inputs`. */
  'prompty-input': ['name', 'kind', 'type', 'description', 'required', 'nullable', 'default', 'example', 'enumValues', 'sample'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export type FrontmatterKeySet = keyof typeof knownFrontmatterKeys;

export interface KeyTypo {
  readonly key: string;
  readonly suggestion: string;
  /** Where the key is (`inputs.firstName.`, `arguments[0].`), for keys of nested items; '' at the top. */
  readonly path: string;
}

/** How many edits still make a typo: none for short keys (only a case difference), one up to seven letters, two beyond. */
export const editsFor = (key: string): number => (key.length <= 3 ? 0 : key.length <= 7 ? 1 : 2);

/** The keys of `data` that are not known to `set` but close to one that is. */
export const findKeyTypos = (data: Readonly<Record<string, unknown>>, set: FrontmatterKeySet, path = ''): KeyTypo[] => {
  const known: readonly string[] = knownFrontmatterKeys[set];
  return Object.keys(data).flatMap((key) => {
    if (known.includes(key)) return [];
    const suggestion = namesWithinEdits(key, known, editsFor(key))[0];
    return suggestion === undefined ? [] : [{ key, suggestion, path }];
  });
};

/** The one sentence every typo is reported with, at load and by `validate`. */
export const describeKeyTypo = (typo: KeyTypo): string =>
  `unknown frontmatter key "${typo.path}${typo.key}"${didYouMean([`${typo.path}${typo.suggestion}`], 'aside')}: it is not read, so it has no effect`;

/** The first line (1-based) mentioning `word` as a whole word: where an argument finding points. */
export const wordLine = (text: string, word: string): number | undefined => {
  const pattern = new RegExp(`(^|[^\\w])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`);
  const index = text.split('\n').findIndex((line) => pattern.test(line));
  return index === -1 ? undefined : index + 1;
};

/** The first line (1-based) where `key` is written as a key (`key:`, `- key:`, `"key":`, `key =`), nested or not. */
export const keyLine = (text: string, key: string): number | undefined => {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\s*(?:-\\s+)?["']?${escaped}["']?\\s*[:=]`);
  const index = text.split('\n').findIndex((line) => pattern.test(line));
  return index === -1 ? undefined : index + 1;
};
