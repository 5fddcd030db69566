import { readFile } from 'node:fs/promises';
import { capText, PromptyardError } from '@promptyard/core';
import type { PromptEntry, PromptService, ResourceContents, ResourceInfo, ResourceProvider } from '@promptyard/core';

export interface PromptResourcesOptions {
  readonly prompts: PromptService;
  /** Larger sources are cut with a note. */
  readonly maxOutputBytes: number;
}

const scheme = 'prompt';

/** `prompt://{name}`, the name percent-encoded as RFC 6570 simple expansion does. */
export const promptUri = (name: string): string => `${scheme}://${encodeURIComponent(name)}`;

const header = (entry: PromptEntry): string => {
  const args = entry.arguments.map(
    (argument) =>
      `- ${argument.name}${argument.required ? ' (required)' : ''}${argument.description === undefined ? '' : `: ${argument.description}`}` +
      `${argument.default === undefined ? '' : ` [default: ${argument.default}]`}${argument.enum === undefined ? '' : ` [one of: ${argument.enum.join(', ')}]`}`,
  );
  return [
    `# ${entry.title ?? entry.name}`,
    '',
    entry.description,
    '',
    ...(args.length > 0 ? ['Arguments:', ...args, ''] : []),
    '---',
    '',
  ].join('\n');
};

/**
 * Every prompt as a read-only resource for clients that show resources but not prompts: its
 * description and arguments, then its source file as written.
 */
export const createPromptResources = (options: PromptResourcesOptions): ResourceProvider => {
  const { prompts, maxOutputBytes } = options;
  return {
    scheme,
    list: (): ResourceInfo[] =>
      prompts.catalog.names().flatMap((name) => {
        const entry = prompts.catalog.get(name);
        return entry === undefined
          ? []
          : [
              {
                uri: promptUri(name),
                name,
                ...(entry.title === undefined ? {} : { title: entry.title }),
                description: entry.description,
                mimeType: 'text/markdown',
              },
            ];
      }),
    templates: () => [
      {
        uriTemplate: `${scheme}://{name}`,
        name: 'prompt',
        title: 'A prompt of the library',
        description: "A prompt's description, arguments and source",
        mimeType: 'text/markdown',
      },
    ],
    read: async (uri): Promise<ResourceContents[]> => {
      const raw = uri.startsWith(`${scheme}://`) ? uri.slice(scheme.length + 3) : undefined;
      let name: string | undefined;
      try {
        name = raw === undefined ? undefined : decodeURIComponent(raw);
      } catch {
        name = undefined;
      }
      const entry = name === undefined ? undefined : prompts.catalog.get(name);
      if (entry === undefined) {
        throw new PromptyardError(
          'RESOURCE_NOT_FOUND',
          `Unknown resource "${uri}": prompt resources are prompt://<name>, see resources/list.`,
          { data: { uri } },
        );
      }
      const source = await readFile(entry.origin.file, 'utf8').catch(() => '');
      return [
        {
          uri,
          mimeType: 'text/markdown',
          text: capText(header(entry) + source.replace(/^\uFEFF/, ''), maxOutputBytes, '[fallback] max_output_bytes'),
        },
      ];
    },
  };
};
