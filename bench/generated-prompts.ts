/**
 * The generated prompt library the benchmarks share: ~2 KB Markdown prompts with frontmatter (two
 * arguments, an enum, tags) and Liquid, spread over 10 top folders × 10 subfolders.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(' ');

/** About `length` characters of words (a line break now and then), the same for the same seed. */
const filler = (seed: number, length: number): string => {
  let text = '';
  let state = seed;
  while (text.length < length) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    text += `${words[state % words.length] as string} `;
    if (state % 13 === 0) text += '\n';
  }
  return text;
};

/** The name (and path without `.md`) of prompt `index`. */
export const nameOf = (index: number): string => `area-${index % 10}/topic-${Math.floor(index / 10) % 10}/prompt-${index}`;

/** The text of prompt `index`'s file. */
export const promptText = (index: number): string =>
  [
    '---',
    `description: Generated prompt number ${index} for the benchmark`,
    'arguments:',
    '  - name: subject',
    '    description: What to write about',
    '    required: true',
    '  - name: tone',
    '    enum: [formal, casual, technical]',
    '    default: formal',
    `tags: [bench, area-${index % 10}]`,
    '---',
    `# Prompt ${index}`,
    '',
    'Write about {{ subject }} in a {{ tone }} tone.',
    '{% if audience %}The audience is {{ audience }}.{% endif %}',
    '',
    filler(index + 1, 1700),
  ].join('\n');

/** Writes prompts 0 … count-1 into `dir` (which may not exist yet). */
export const writePrompts = async (dir: string, count: number): Promise<void> => {
  for (let index = 0; index < count; index++) {
    if (index < 100) await mkdir(join(dir, nameOf(index), '..'), { recursive: true });
    await writeFile(join(dir, `${nameOf(index)}.md`), promptText(index));
  }
};
