export interface Block {
  readonly text: string;
  /** Counted in the cut note ("7 of 10 results shown"). */
  readonly result?: boolean;
  /** Follows the previous block on the next line instead of after a blank line. */
  readonly tight?: boolean;
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

const join = (blocks: readonly Block[]): string =>
  blocks.map((block, index) => (index === 0 ? block.text : `${block.tight === true ? '\n' : '\n\n'}${block.text}`)).join('');

/**
 * Joins blocks, keeping whole blocks while they fit in `maxBytes` (the note included), and says
 * where it cut, so a model knows more exists.
 */
export const joinWithin = (blocks: readonly Block[], maxBytes: number, noun = 'results'): string => {
  const full = join(blocks);
  if (bytes(full) <= maxBytes) return full;
  const total = blocks.filter((block) => block.result === true).length;
  const note = (shown: number): string => `[output cut at ${maxBytes} bytes: ${shown} of ${total} ${noun} shown]`;
  const budget = maxBytes - bytes(`\n\n${note(total)}`);
  const kept: Block[] = [];
  let used = 0;
  let shown = 0;
  for (const block of blocks) {
    const size = bytes(block.text) + (kept.length === 0 ? 0 : block.tight === true ? 1 : 2);
    if (used + size > budget) break;
    kept.push(block);
    used += size;
    if (block.result === true) shown++;
  }
  if (kept.length === 0) {
    // Not even the first block fits: keep its first lines that do.
    let text = '';
    for (const line of (blocks[0]?.text ?? '').split('\n')) {
      const next = text === '' ? line : `${text}\n${line}`;
      if (bytes(next) > budget) break;
      text = next;
    }
    if (text !== '') kept.push({ text });
  }
  return join([...kept, { text: note(shown) }]);
};
