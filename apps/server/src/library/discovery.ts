import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PromptyardError, formatList } from '@promptyard/core';
import { nativeFormats, type NativeFormat } from '@promptyard/prompts';

type DiscoveryScope = 'project' | 'home';

/** A well-known folder that exists, with the prefix its prompts are named with. */
export interface DiscoveredFolder {
  readonly format: NativeFormat;
  readonly scope: DiscoveryScope;
  readonly dir: string;
  /** `@path` references resolve inside it: the project, or the format's own folder in the home. */
  readonly root: string;
  readonly prefix: string;
}

/** Prefix setting of each format (`claude` covers commands and skills). */
const prefixKey = (format: NativeFormat): 'claude' | 'copilot' | 'continue' | 'gemini' | 'codex' | 'speckit' | 'prompty' =>
  format === 'claude-commands' || format === 'claude-skills' ? 'claude' : format;

/** Where each format lives, relative to the project and to the home folder; Codex prompts are user-only. */
const locations: Readonly<Record<NativeFormat, { readonly project?: readonly string[]; readonly home?: readonly string[] }>> = {
  'claude-commands': { project: ['.claude/commands'], home: ['.claude/commands'] },
  'claude-skills': { project: ['.claude/skills'], home: ['.claude/skills'] },
  // VS Code keeps user prompt files in its profile folder: Linux, then macOS.
  copilot: { project: ['.github/prompts'], home: ['.config/Code/User/prompts', 'Library/Application Support/Code/User/prompts'] },
  continue: { project: ['.continue/prompts'], home: ['.continue/prompts'] },
  gemini: { project: ['.gemini/commands'], home: ['.gemini/commands'] },
  codex: { home: ['.codex/prompts'] },
  speckit: { project: ['templates/commands'] },
  prompty: { project: ['.'] },
};

export interface DiscoveryOptions {
  readonly cwd: string;
  readonly home: string | undefined;
  readonly project: boolean;
  readonly includeHome: boolean;
  readonly formats: readonly string[];
  readonly prefixes: Readonly<Record<ReturnType<typeof prefixKey>, string>>;
  /** `$CODEX_HOME`, where Codex keeps `prompts/`. */
  readonly codexHome?: string | undefined;
}

const isFolder = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isDirectory() === true;

const checkFormats = (formats: readonly string[]): NativeFormat[] => {
  const unknown = formats.filter((format) => !(nativeFormats as readonly string[]).includes(format));
  if (unknown.length > 0) {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `[discovery] formats: unknown ${formatList(unknown)}; known formats are ${formatList(nativeFormats)}.`,
    );
  }
  return formats as NativeFormat[];
};

/**
 * The well-known prompt folders that exist, project ones first: on a name clash the project's prompt
 * is served and the home one is reported as shadowed.
 */
export const discoverFolders = async (options: DiscoveryOptions): Promise<DiscoveredFolder[]> => {
  const formats = checkFormats(options.formats);
  const candidates: DiscoveredFolder[] = [];
  const scopes: [DiscoveryScope, string | undefined][] = [
    ['project', options.project ? options.cwd : undefined],
    ['home', options.includeHome ? options.home : undefined],
  ];
  for (const [scope, base] of scopes) {
    if (base === undefined) continue;
    for (const format of formats) {
      for (const relative of locations[format][scope] ?? []) {
        const dir = format === 'codex' && options.codexHome !== undefined ? join(options.codexHome, 'prompts') : join(base, relative);
        // The project may be the home folder: each folder is served once.
        if (candidates.some((candidate) => candidate.dir === dir && candidate.format === format)) continue;
        candidates.push({ format, scope, dir, root: scope === 'project' ? base : dir, prefix: options.prefixes[prefixKey(format)] });
      }
    }
  }
  const present = await Promise.all(candidates.map((candidate) => isFolder(candidate.dir)));
  return candidates.filter((_candidate, index) => present[index] === true);
};

/** Where Agent Skills live, in the project and in the home folder: Claude Code's and the cross-tool one. */
const skillLocations = ['.claude/skills', '.agents/skills'] as const;

/** The well-known skill folders that exist, project ones first (on a name clash the project's skill is served). */
export const discoverSkillFolders = async (
  options: Pick<DiscoveryOptions, 'cwd' | 'home' | 'project' | 'includeHome'>,
): Promise<string[]> => {
  const bases = [...(options.project ? [options.cwd] : []), ...(options.includeHome && options.home !== undefined ? [options.home] : [])];
  const candidates = [...new Set(bases.flatMap((base) => skillLocations.map((relative) => join(base, relative))))];
  const present = await Promise.all(candidates.map(isFolder));
  return candidates.filter((_candidate, index) => present[index] === true);
};
