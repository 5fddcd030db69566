import { describe, expect, it } from 'vitest';
import { BoundedLines } from './bounded-lines.js';

interface Seen {
  lines: string[];
  oversized: { head: string; bytes: number }[];
  skipped: { tail: string; bytes: number }[];
}

const reader = (maxBytes: number): { lines: BoundedLines; seen: Seen } => {
  const seen: Seen = { lines: [], oversized: [], skipped: [] };
  const lines = new BoundedLines(maxBytes, {
    line: (text) => seen.lines.push(text),
    oversized: (head, bytes) => seen.oversized.push({ head: Buffer.from(head).toString('utf8', 0, 20), bytes }),
    skipped: (tail, bytes) => seen.skipped.push({ tail: Buffer.from(tail).toString('utf8'), bytes }),
  });
  return { lines, seen };
};

/** `text` cut into pieces of `size` bytes. */
const pieces = (text: string | Buffer, size: number): Buffer[] => {
  const all = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < all.length; at += size) out.push(all.subarray(at, at + size));
  return out;
};

/** CPU milliseconds `run` takes. */
const cpuMs = (run: () => void): number => {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

describe('BoundedLines', () => {
  it('reads lines split anywhere, multi-byte characters included, and the last one without a newline at the end', () => {
    const { lines, seen } = reader(100);
    for (const piece of pieces('héllo ✓\r\n{"a":1}\n\nlast', 3)) lines.push(piece);
    expect(seen.lines).toEqual(['héllo ✓\r', '{"a":1}', '']);
    lines.end();
    expect(seen.lines.at(-1)).toBe('last');
    expect(seen.oversized).toEqual([]);
  });

  it('reads the whole lines of a chunk in one go, and joins a line held from the chunk before', () => {
    const { lines, seen } = reader(100);
    lines.push(Buffer.from('a\nb\r\nc\nd'));
    lines.push(Buffer.from('é\nf\ng'));
    expect(seen.lines).toEqual(['a', 'b\r', 'c', 'dé', 'f']);
    expect(lines.held).toBe(1);
  });

  it('drops a line the moment it passes the limit, skips it to its newline keeping its end, and reads on', () => {
    const { lines, seen } = reader(10);
    lines.push(Buffer.from('ok\n0123456'));
    lines.push(Buffer.from('789ab'));
    expect(seen.oversized).toEqual([{ head: '0123456789ab', bytes: 12 }]);
    expect(lines.held).toBe(0);
    lines.push(Buffer.from('cdefgh'.repeat(100)));
    expect(lines.held).toBe(0);
    lines.push(Buffer.from('xyz","id":4}\nnext\n'));
    expect(seen.skipped).toHaveLength(1);
    expect(seen.skipped[0]?.bytes).toBe(12 + 600 + 12);
    expect(seen.skipped[0]?.tail.endsWith('xyz","id":4}')).toBe(true);
    expect(seen.lines).toEqual(['ok', 'next']);
  });

  it('drops a whole line over the limit that arrives in one chunk', () => {
    const { lines, seen } = reader(4);
    lines.push(Buffer.from('abcdefgh\nabc\n'));
    expect(seen.oversized).toEqual([{ head: 'abcdefgh', bytes: 8 }]);
    expect(seen.skipped).toEqual([{ tail: 'abcdefgh', bytes: 8 }]);
    expect(seen.lines).toEqual(['abc']);
  });

  it('takes a line still without its newline at 4× the limit for an unbounded stream, and reads nothing after it', () => {
    const seen: Seen & { unbounded: number[] } = { lines: [], oversized: [], skipped: [], unbounded: [] };
    const lines = new BoundedLines(10, {
      line: (text) => seen.lines.push(text),
      oversized: (_head, bytes) => seen.oversized.push({ head: '', bytes }),
      skipped: (tail, bytes) => seen.skipped.push({ tail: Buffer.from(tail).toString('utf8'), bytes }),
      unbounded: (bytes) => seen.unbounded.push(bytes),
    });
    // A line of 4× the limit that ends is skipped as any line over it.
    lines.push(Buffer.from(`ok\n${'a'.repeat(40)}\n`));
    expect({ skipped: seen.skipped.map(({ bytes }) => bytes), unbounded: seen.unbounded }).toEqual({ skipped: [40], unbounded: [] });
    for (const piece of pieces('b'.repeat(41), 7)) lines.push(piece);
    expect(seen.unbounded).toEqual([41]);
    expect(lines.held).toBe(0);
    lines.push(Buffer.from('b\nafter\n'));
    expect({ lines: seen.lines, skipped: seen.skipped.length, unbounded: seen.unbounded.length }).toEqual({
      lines: ['ok'],
      skipped: 1,
      unbounded: 1,
    });
  });

  it('reads a 50 MB line in 64 KB chunks in linear time, over the limit or within it', () => {
    const chunk = Buffer.alloc(64 * 1024, 'a'.charCodeAt(0));
    const count = (50 * 1024 * 1024) / chunk.length;
    const over = reader(10 * 1024 * 1024);
    const overMs = cpuMs(() => {
      for (let i = 0; i < count; i++) over.lines.push(chunk);
      over.lines.push(Buffer.from('\n'));
    });
    expect(over.seen.oversized).toHaveLength(1);
    expect(over.seen.skipped[0]?.bytes).toBe(50 * 1024 * 1024);
    const within = reader(64 * 1024 * 1024);
    let length = 0;
    const withinMs = cpuMs(() => {
      for (let i = 0; i < count; i++) within.lines.push(chunk);
      within.lines.push(Buffer.from('\n'));
      length = within.seen.lines[0]?.length ?? 0;
    });
    expect(length).toBe(50 * 1024 * 1024);
    // The reader it replaces rescanned the line for every chunk: ~5 s of CPU for 50 MB.
    expect(overMs).toBeLessThan(250);
    expect(withinMs).toBeLessThan(1000);
  });
});
