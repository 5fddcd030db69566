import { capText, textResult } from '@promptyard/core';
import type { SkillTree, ToolDefinition } from '@promptyard/core';

export interface SkillToolsOptions {
  readonly tree: SkillTree;
  /** Results larger than this (UTF-8 bytes) are cut with a note. */
  readonly maxOutputBytes: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * `read_skill_file`: a skill's files for clients without the skills extension, beside the skill's
 * own text as a prompt (`get_prompt`). A folder path lists the folder.
 */
export const createSkillTools = (options: SkillToolsOptions): ToolDefinition[] => {
  const { tree, maxOutputBytes } = options;
  return [
    {
      name: 'read_skill_file',
      title: 'Read a skill file',
      description:
        'Read a file of an Agent Skill, e.g. "review/references/GUIDE.md" (a path inside the skill folder, starting with the skill name). A folder path ("review") lists its files. The skill itself is the prompt of the same name (get_prompt).',
      inputSchema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Path of the file or folder, starting with the skill name', minLength: 1, maxLength: 500 },
        },
        required: ['path'],
        additionalProperties: false,
      },
      annotations: { title: 'Read a skill file', readOnlyHint: true, openWorldHint: false },
      execute: async (args) => {
        const path = String(args['path']).replace(/^\/+|\/+$/g, '');
        const entries = await tree.list(path).catch(() => undefined);
        if (entries !== undefined) {
          const lines = entries.map((entry) => `${path}/${entry.name}${entry.kind === 'directory' ? '/' : ''}`);
          return textResult(lines.length === 0 ? `${path} is empty.` : lines.join('\n'));
        }
        const bytes = await tree.read(path);
        try {
          return textResult(capText(decoder.decode(bytes), maxOutputBytes, '[fallback] max_output_bytes'));
        } catch {
          return textResult(`${path} is a binary file (${bytes.byteLength} bytes); clients with the skills extension can fetch it.`);
        }
      },
    },
  ];
};
