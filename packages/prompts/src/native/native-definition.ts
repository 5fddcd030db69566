import type { PromptArgument, RenderOptions, TemplateEngine } from '@promptyard/core';
import type { KeyTypo } from '../formats/frontmatter-typos.js';
import type { ReferenceStyle } from './file-references.js';
import type { SectionRole } from './role-sections.js';

/** The formats Promptyard reads in their own dialects. */
export const nativeFormats = ['claude-commands', 'claude-skills', 'copilot', 'continue', 'gemini', 'codex', 'speckit', 'prompty'] as const;
export type NativeFormat = (typeof nativeFormats)[number];

export interface NativeFileInput {
  /** Decoded text, BOM removed; CRLF line endings are read as LF. */
  readonly text: string;
  /** Absolute path, for errors. */
  readonly file: string;
  /** Path relative to the format's folder, with `/`. */
  readonly path: string;
  /** Prompty bodies render with it. */
  readonly jinja: TemplateEngine;
  /** Prompty bodies whose `template` is `mustache` render with it. */
  readonly mustache?: TemplateEngine;
  /** The prompt folder, which Prompty's `${file:…}` frontmatter references may not leave. */
  readonly root?: string;
  /** The size limit of a referenced file. */
  readonly maxFileBytes?: number;
}

/** A message a section rendered to, when its output holds role lines of its own (Prompty). */
export interface RenderedPart {
  readonly role: SectionRole;
  readonly text: string;
  /** The message content's `_meta` (a Prompty role line's attributes). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface NativeSection {
  readonly role: SectionRole;
  /** Arguments this section reads. */
  readonly variables: readonly string[];
  /**
   * The section's text (one message in `role`), or the messages it rendered to. `options.signal`
   * aborts at the render's deadline: an engine that can stop there should.
   */
  render(args: Readonly<Record<string, string>>, options?: RenderOptions): Promise<string | readonly RenderedPart[]>;
}

/** One prompt file read in its format: what the entry builder turns into a registry entry. */
export interface NativeDefinition {
  /** Name before prefix and normalisation (`git/commit`). */
  readonly id: string;
  readonly title?: string;
  readonly description?: string;
  /** Declared by the format (Prompty inputs) or implied by its placeholders. */
  readonly arguments: readonly PromptArgument[];
  /** Names the file declares explicitly; `validate` reports those no section uses. */
  readonly declared: readonly string[];
  readonly sections: readonly NativeSection[];
  readonly body: string;
  readonly references?: ReferenceStyle;
  /** Placeholders as written that nothing fills over MCP (`${editorThing}`); `validate` warns. */
  readonly unfilled?: readonly string[];
  /** Unknown frontmatter keys close to one the format reads (`argumnets`); warned at load and by `validate`. */
  readonly typos?: readonly KeyTypo[];
  /** Constructs kept as written rather than served as the tool would (Prompty's `${env:NAME}`); `validate` warns. */
  readonly warnings?: readonly { readonly message: string; readonly line?: number }[];
  readonly meta: Readonly<Record<string, unknown>>;
}

export const stringField = (data: Readonly<Record<string, unknown>>, key: string): string | undefined => {
  const value = Object.hasOwn(data, key) ? data[key] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/** Frontmatter keys other than the ones a format consumes, kept as the prompt's `_meta`. */
export const extraFields = (data: Readonly<Record<string, unknown>>, consumed: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(data).filter(([key]) => !consumed.includes(key)));

export const stripExtension = (path: string, extension: string): string =>
  path.toLowerCase().endsWith(extension) ? path.slice(0, -extension.length) : path;
