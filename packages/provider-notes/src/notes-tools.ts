import { textResult } from '@promptyard/core';
import type { ToolProviderFactory } from '@promptyard/core';
import type { NotesOptions } from './notes.js';
import { noteNames } from './notes.js';

/**
 * `search_notes`: the lines of the notes that contain every word of a query, one per line as
 * `name: line`. Invalid input never reaches `execute`: the server checks it against `inputSchema`
 * and answers the model with what to change.
 */
export const createToolProvider: ToolProviderFactory<NotesOptions> = (notes) => ({
  tools: [
    {
      name: 'search_notes',
      title: 'Search notes',
      description:
        'Find the lines of the team notes that contain every word of a query (case-insensitive). Returns "note: line" per match.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for, e.g. "deploy friday"', minLength: 1, maxLength: 200 },
          limit: { type: 'integer', description: 'Most lines to return (default 10)', minimum: 1, maximum: 50, default: 10 },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { title: 'Search notes', readOnlyHint: true, openWorldHint: false },
      execute: async (args) => {
        const query = String(args['query']);
        const limit = typeof args['limit'] === 'number' ? args['limit'] : 10;
        const words = query
          .toLowerCase()
          .split(/\s+/)
          .filter((word) => word !== '');
        const hits: string[] = [];
        for (const name of noteNames(notes)) {
          for (const line of (notes[name] ?? '').split('\n')) {
            const lowered = line.toLowerCase();
            if (words.every((word) => lowered.includes(word))) hits.push(`${name}: ${line.trim()}`);
          }
        }
        if (hits.length === 0) return textResult(`No note line contains "${query}". Notes: ${noteNames(notes).join(', ') || 'none'}.`);
        const shown = hits.slice(0, limit);
        return textResult(
          `${shown.join('\n')}${hits.length > shown.length ? `\n[${hits.length - shown.length} more lines; raise limit to see them]` : ''}`,
        );
      },
    },
  ],
});
