import type { ResourceContents, ResourceInfo, ResourceProviderFactory } from '@promptyard/core';
import type { NotesOptions } from './notes.js';
import { noteNames, noteText } from './notes.js';

const scheme = 'note';

/**
 * `note://{name}`: the notes as resources, listed, completed and read. Enabled with
 * `[[providers]] package = "@promptyard/provider-notes"` (kinds: resources).
 */
export const createResourceProvider: ResourceProviderFactory<NotesOptions> = (notes) => ({
  scheme,
  list: (): ResourceInfo[] =>
    noteNames(notes).map((name) => ({ uri: `${scheme}://${encodeURIComponent(name)}`, name: `note:${name}`, mimeType: 'text/markdown' })),
  templates: () => [{ uriTemplate: `${scheme}://{name}`, name: 'note', title: 'A note from promptyard.toml', mimeType: 'text/markdown' }],
  complete: (_template, variable, value) => (variable === 'name' ? noteNames(notes).filter((name) => name.startsWith(value)) : []),
  read: async (uri): Promise<ResourceContents[]> => {
    let name = uri.slice(`${scheme}://`.length);
    try {
      name = decodeURIComponent(name);
    } catch {
      // an undecodable name is simply unknown
    }
    return [{ uri, mimeType: 'text/markdown', text: noteText(notes, name, uri) }];
  },
});

/** The first name of `createResourceProvider`, still honoured by the server. */
export const createProvider = createResourceProvider;
