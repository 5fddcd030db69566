import { once } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalescingWriter } from './stdio.js';

/** A target that records each write; `slow` holds back its callbacks until `release`, like a full pipe. */
const recordingTarget = (highWaterMark: number, slow: boolean) => {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  const target = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      writes.push(chunk.toString());
      if (slow) held.push(() => callback());
      else callback();
    },
  });
  return { target, writes, release: () => held.splice(0).forEach((done) => done()) };
};

describe('coalescingWriter', () => {
  it('writes a lone message at once and joins those that follow in the same turn', async () => {
    const { target, writes } = recordingTarget(1 << 20, false);
    const writer = coalescingWriter(target);
    expect(writer.write('a\n')).toBe(true);
    expect(writes).toEqual(['a\n']);
    writer.write('b\n');
    writer.write('c\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\n', 'b\nc\n']);
  });

  it('says when the target is full, and passes its drain on', async () => {
    const { target, release } = recordingTarget(4, true);
    const writer = coalescingWriter(target);
    expect(writer.write('a long message\n')).toBe(false);
    const drained = once(writer, 'drain');
    release();
    await drained;
    await new Promise((resolve) => setImmediate(resolve));
    expect(writer.write('x\n')).toBe(true);
    release();
  });

  it('passes the target’s errors on', async () => {
    const { target } = recordingTarget(16, false);
    const writer = coalescingWriter(target);
    const failed = once(writer, 'error');
    target.emit('error', new Error('EPIPE'));
    expect(((await failed)[0] as Error).message).toBe('EPIPE');
  });
});
