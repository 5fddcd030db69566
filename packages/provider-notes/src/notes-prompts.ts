import { describeError, PromptyardError } from '@promptyard/core';
import type { PromptEntry, PromptSourceFactory } from '@promptyard/core';
import type { NotesOptions } from './notes.js';
import { firstLine, noteNames } from './notes.js';

/**
 * Every note as a prompt `note:<name>`, rendered with the server's Liquid engine, so a note may take
 * arguments: `{{ team }}` in its text is an optional argument `team`. A note whose template does not
 * compile is logged and left out, as the server does with a broken prompt file.
 */
export const createPromptSource: PromptSourceFactory<NotesOptions> = (notes, context) => {
  const engine = context.engines['liquid'];
  if (engine === undefined) {
    throw new PromptyardError(
      'CONFIG_INVALID',
      'The notes prompt source renders with the server\'s "liquid" engine, which this server does not offer.',
    );
  }
  return {
    id: 'notes',
    load: async () =>
      noteNames(notes).flatMap((name): PromptEntry[] => {
        const text = notes[name] ?? '';
        const file = `note://${encodeURIComponent(name)}`;
        try {
          const template = engine.compile(text, { file });
          return [
            {
              name: `note:${name}`,
              description: firstLine(text) || `The note "${name}"`,
              arguments: template.variables.map((variable) => ({ name: variable, required: false })),
              origin: { file },
              text,
              render: async (args, options) => ({
                messages: [{ role: 'user', content: { type: 'text', text: await template.render(args, options) } }],
              }),
            },
          ];
        } catch (error) {
          context.logger.warn('note left out: its template does not compile', { note: name, reason: describeError(error) });
          return [];
        }
      }),
  };
};
