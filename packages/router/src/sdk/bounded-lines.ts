import { headOf, TAIL_BYTES } from './message-bounds.js';

const NEWLINE = 0x0a;

export interface LineSink {
  /** A whole line, without its newline (a trailing `\r` is left to the caller). */
  line(bytes: Buffer): void;
  /**
   * The line being read grew past the limit: its bytes so far are dropped and the rest of it will
   * be skipped. `head` is its first bytes (to find the request it answers), `bytes` how many were read.
   */
  oversized(head: Uint8Array, bytes: number): void;
  /** The line that passed the limit ended: `tail` is its last bytes (an id written after the payload), `bytes` its length. */
  skipped?(tail: Uint8Array, bytes: number): void;
}

/**
 * Newline-delimited messages read from a byte stream, each at most `maxBytes`: every byte is looked
 * at once (a newline is searched for in the new chunk only; a line's chunks are joined once, when it
 * ends), and a line that passes the limit stops being held at that moment and is skipped to its
 * newline, keeping only its last few bytes. Lines are decoded by the caller, whole, so a character
 * split between chunks stays intact.
 */
export class BoundedLines {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Inside a line over the limit: its bytes are dropped until its newline, but for the last few. */
  private skipping: { bytes: number; tail: Buffer } | undefined;
  private readonly maxBytes: number;
  private readonly sink: LineSink;

  constructor(maxBytes: number, sink: LineSink) {
    this.maxBytes = maxBytes;
    this.sink = sink;
  }

  /** Bytes held for the line still arriving (at most the limit). */
  get held(): number {
    return this.length;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (this.skipping !== undefined) {
        const { bytes, tail } = this.skip(piece);
        this.skipping = undefined;
        this.sink.skipped?.(tail, bytes);
      } else if (this.length + piece.length > this.maxBytes) {
        this.drop(piece);
        const { bytes, tail } = this.skip(Buffer.alloc(0));
        this.skipping = undefined;
        this.sink.skipped?.(tail, bytes);
      } else {
        const line = this.chunks.length === 0 ? piece : Buffer.concat([...this.chunks, piece], this.length + piece.length);
        this.chunks = [];
        this.length = 0;
        this.sink.line(line);
      }
    }
    if (start === chunk.length) return;
    const rest = chunk.subarray(start);
    if (this.skipping !== undefined) this.skip(rest);
    else if (this.length + rest.length > this.maxBytes) this.drop(rest);
    else {
      this.chunks.push(rest);
      this.length += rest.length;
    }
  }

  /** The line still arriving, if any and within the limit (a stream that ended without a last newline). */
  end(): void {
    const rest = this.length > 0 && this.skipping === undefined ? Buffer.concat(this.chunks, this.length) : undefined;
    this.reset();
    if (rest !== undefined) this.sink.line(rest);
  }

  /** Forgets the line still arriving (the stream ended or was closed). */
  reset(): void {
    this.chunks = [];
    this.length = 0;
    this.skipping = undefined;
  }

  /** Passes the limit with `piece`: the line so far is dropped, its last bytes kept while the rest is skipped. */
  private drop(piece: Buffer): void {
    const bytes = this.length + piece.length;
    const head = headOf([...this.chunks, piece]);
    const last = [piece];
    for (let i = this.chunks.length - 1, kept = piece.length; i >= 0 && kept < TAIL_BYTES; i--) {
      const chunk = this.chunks[i] as Buffer;
      last.unshift(chunk.subarray(-TAIL_BYTES));
      kept += chunk.length;
    }
    this.chunks = [];
    this.length = 0;
    this.skipping = { bytes, tail: Buffer.from(Buffer.concat(last).subarray(-TAIL_BYTES)) };
    this.sink.oversized(head, bytes);
  }

  /** Skips `piece` of the line over the limit, keeping its last bytes. */
  private skip(piece: Buffer): { bytes: number; tail: Buffer } {
    const skipping = this.skipping ?? { bytes: 0, tail: Buffer.alloc(0) };
    skipping.bytes += piece.length;
    skipping.tail =
      piece.length >= TAIL_BYTES ? Buffer.from(piece.subarray(-TAIL_BYTES)) : Buffer.concat([skipping.tail, piece]).subarray(-TAIL_BYTES);
    this.skipping = skipping;
    return skipping;
  }
}
