/** What a prompt folder serves: Markdown prompts, and Prompty files beside them. */
const promptExtensions = ['.md', '.prompty'] as const;

type PromptExtension = (typeof promptExtensions)[number];

/** The extension that makes `path` a prompt file, if any. */
export const promptExtension = (path: string): PromptExtension | undefined =>
  promptExtensions.find((extension) => path.endsWith(extension));

/** A prompt's name in its folder: its relative path without the extension. */
export const promptNameOf = (source: string): string => source.slice(0, source.length - (promptExtension(source)?.length ?? 0));
