import { readFile, stat } from 'node:fs/promises';
import { extname, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPathInside, locateReal } from '@promptyard/core';
import type { PromptContent } from '@promptyard/core';

export type ReferenceStyle = 'at' | 'at-brace';

const patterns: Record<ReferenceStyle, RegExp> = {
  // Claude: `@src/app.ts` after a space or line start; e-mail addresses do not match.
  at: /(?<![\w@`])@([\w\-./]+[\w/])/g,
  // Gemini: `@{docs/guide.md}`.
  'at-brace': /@\{([^}\n]+)\}/g,
};

const imageTypes: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};
const textTypes: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.ts': 'text/x-typescript',
  '.js': 'text/javascript',
};

/** Referenced paths in text, in order, without repeats. */
export const findReferences = (text: string, style: ReferenceStyle): string[] => [
  ...new Set([...text.matchAll(patterns[style])].map((match) => (match[1] ?? '').trim()).filter((path) => path !== '')),
];

export interface ReferenceOptions {
  /** Embed a file whose symlinks lead outside `root` (`[prompts] follow_external_symlinks`). */
  readonly followExternal?: boolean;
  /** Told when a symlink leading outside `root` kept a file out. */
  readonly onEscape?: (path: string, real: string) => void;
}

/**
 * The content a reference embeds, or undefined when it must stay literal text: outside `root` (by
 * name, or through a symlink unless allowed), in a hidden folder (`.env`, `.ssh`), not a file, or
 * over `maxBytes`.
 */
export const resolveReference = async (
  root: string,
  reference: string,
  maxBytes: number,
  options: ReferenceOptions = {},
): Promise<PromptContent | undefined> => {
  const path = resolve(root, reference);
  if (
    !isPathInside(root, path) ||
    relative(root, path)
      .split(sep)
      .some((segment) => segment.startsWith('.'))
  )
    return undefined;
  const location = await locateReal(root, path);
  if (location === undefined) return undefined;
  if (!location.inside && options.followExternal !== true) {
    options.onEscape?.(path, location.real);
    return undefined;
  }
  const { real } = location;
  try {
    const info = await stat(real);
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const bytes = await readFile(real);
    const extension = extname(real).toLowerCase();
    const image = imageTypes[extension];
    if (image !== undefined) return { type: 'image', data: bytes.toString('base64'), mimeType: image };
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { type: 'resource', resource: { uri: pathToFileURL(real).href, mimeType: textTypes[extension] ?? 'text/plain', text } };
  } catch {
    return undefined;
  }
};
