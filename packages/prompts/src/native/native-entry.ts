import { PromptyardError, describeError, isPromptyardError, type PromptEntry, type PromptMessage } from '@promptyard/core';
import { deriveDescription } from '../formats/derive-description.js';
import { findReferences, resolveReference } from './file-references.js';
import type { NativeDefinition, NativeFormat, RenderedPart } from './native-definition.js';
import { normalizePromptName } from './prompt-name.js';

export interface NativeEntryOptions {
  readonly format: NativeFormat;
  readonly definition: NativeDefinition;
  readonly file: string;
  /** Path relative to the format's folder, exposed as `_meta['dev.promptyard/source']`. */
  readonly source: string;
  readonly prefix: string;
  /** `@path` references resolve inside this folder only. */
  readonly root: string;
  readonly maxFileBytes: number;
  /** Embed `@path` files whose symlinks lead outside the root. */
  readonly followExternal?: boolean;
}

/**
 * A registry entry for a native prompt: each section renders to a message (system sections as user
 * messages — MCP prompts have no system role), then each `@path` that resolves inside the root is
 * appended as an embedded resource or image; the reference text itself stays as written.
 */
export const createNativeEntry = (options: NativeEntryOptions): PromptEntry => {
  const { definition, file, root, maxFileBytes } = options;
  const referenceOptions = { followExternal: options.followExternal === true };
  const name = normalizePromptName(`${options.prefix}${definition.id}`);
  const description = definition.description ?? deriveDescription(definition.body, name);
  return {
    name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description,
    arguments: definition.arguments,
    meta: { ...definition.meta, 'dev.promptyard/format': options.format, 'dev.promptyard/source': options.source },
    origin: { file, line: 1 },
    text: definition.body,
    render: async (args, renderOptions) => {
      const messages: PromptMessage[] = [];
      const references: string[] = [];
      for (const section of definition.sections) {
        renderOptions?.signal?.throwIfAborted();
        let rendered: string | readonly RenderedPart[];
        try {
          rendered = await section.render(args, renderOptions);
        } catch (error) {
          if (isPromptyardError(error) || renderOptions?.signal?.aborted === true) throw error;
          throw new PromptyardError('TEMPLATE_ERROR', `${file}: ${describeError(error)}`, { cause: error, data: { file } });
        }
        const parts: readonly RenderedPart[] = typeof rendered === 'string' ? [{ role: section.role, text: rendered }] : rendered;
        for (const { role, text, meta } of parts) {
          if (text.trim() === '') continue;
          const content = { type: 'text' as const, text, ...(meta === undefined ? {} : { _meta: meta }) };
          messages.push({ role: role === 'assistant' ? 'assistant' : 'user', content });
          if (definition.references !== undefined) references.push(...findReferences(text, definition.references));
        }
      }
      for (const reference of new Set(references)) {
        const content = await resolveReference(root, reference, maxFileBytes, referenceOptions);
        if (content !== undefined) messages.push({ role: 'user', content });
      }
      return { description, messages };
    },
  };
};
