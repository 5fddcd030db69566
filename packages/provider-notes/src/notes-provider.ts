import { closestNames, formatList, PromptyardError } from '@promptyard/core';
import type { ResourceContents, ResourceInfo, ResourceProviderFactory } from '@promptyard/core';

/** Each option is a note: its key the name, its value the Markdown text. */
export type NotesOptions = Readonly<Record<string, string>>;

const scheme = 'note';

/**
 * `note://{name}`: short Markdown notes written in config. A third-party provider in miniature: it
 * uses only `@promptyard/core`'s types and is enabled with `[[providers]] package = "@promptyard/provider-notes"`.
 */
export const createProvider: ResourceProviderFactory<NotesOptions> = (notes) => {
  const names = (): string[] => Object.keys(notes).sort();
  return {
    scheme,
    list: (): ResourceInfo[] => names().map((name) => ({ uri: `${scheme}://${encodeURIComponent(name)}`, name: `note:${name}`, mimeType: 'text/markdown' })),
    templates: () => [{ uriTemplate: `${scheme}://{name}`, name: 'note', title: 'A note from promptyard.toml', mimeType: 'text/markdown' }],
    complete: (_template, variable, value) => (variable === 'name' ? names().filter((name) => name.startsWith(value)) : []),
    read: async (uri): Promise<ResourceContents[]> => {
      const name = decodeURIComponent(uri.slice(scheme.length + 3));
      const text = Object.hasOwn(notes, name) ? notes[name] : undefined;
      if (text === undefined) {
        const close = closestNames(name, names());
        throw new PromptyardError('RESOURCE_NOT_FOUND', `No note "${name}"${close.length > 0 ? `; did you mean ${formatList(close)}?` : ''} Notes are the options of this provider in promptyard.toml.`, { data: { uri } });
      }
      return [{ uri, mimeType: 'text/markdown', text }];
    },
  };
};
