export { createPromptFolderSource } from './prompt-folder-source.js';
export type { PromptDelta, PromptFolderOptions, PromptFolderSource } from './types.js';
export { parseFrontmatter } from './frontmatter.js';
export type { Frontmatter } from './frontmatter.js';
export { parsePromptFile } from './parse-prompt-file.js';
export type { ParsePromptFileOptions, PromptLibraryContext } from './parse-prompt-file.js';
export { normalizeLibraryName, parseTwigManifest } from './twig-manifest.js';
export type { TwigManifest, TwigPromptDeclaration } from './twig-manifest.js';
