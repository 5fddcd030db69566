import { headOf, TAIL_BYTES, UNBOUNDED_FACTOR } from './message-bounds.js';

const NEWLINE = 0x0a;

export interface LineSink {
  /** A whole line, decoded, without its newline (a trailing `\r` is left to the caller). */
  line(text: string): void;
  /**
   * The line being read grew past the limit: its bytes so far are dropped and the rest of it will
   * be skipped. `head` is its first bytes (to find the request it answers), `bytes` how many were read.
   */
  oversized(head: Uint8Array, bytes: number): void;
  /** The line that passed the limit ended: `tail` is its last bytes (an id written after the payload), `bytes` its length. */
  skipped?(tail: Uint8Array, bytes: number): void;
  /**
   * The line over the limit went on for `UNBOUNDED_FACTOR` times the limit without a newline: the
   * stream is taken as unbounded and nothing more is read from it (the caller cuts it). A sink
   * without it has such a line skipped however long it is.
   */
  unbounded?(bytes: number): void;
}

/**
 * Newline-delimited messages read from a byte stream, each at most `maxBytes`: every byte is looked
 * at once (a newline is searched for in the new chunk only; a line's chunks are joined once, when it
 * ends), and a line that passes the limit stops being held at that moment and is skipped to its
 * newline, keeping only its last few bytes. Only whole lines are decoded, so a character split
 * between chunks stays intact; a chunk's whole lines are decoded in one call. A line still without
 * a newline at `UNBOUNDED_FACTOR` times the limit ends the reading (`LineSink.unbounded`).
 */
export class BoundedLines {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Inside a line over the limit: its bytes are dropped until its newline, but for the last few. */
  private skipping: { bytes: number; tail: Buffer } | undefined;
  /** The stream was taken as unbounded: what comes after is ignored. */
  private cut = false;
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
    if (this.cut) return;
    let start = 0;
    // The line in progress (held, or being skipped) ends at the chunk's first newline.
    if (this.length > 0 || this.skipping !== undefined) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) return this.keep(chunk);
      this.complete(chunk.subarray(0, end));
      start = end + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) {
      // A chunk within the limit holds no line over it: its whole lines are decoded in one go.
      if (chunk.length <= this.maxBytes) this.decoded(chunk.toString('utf8', start, last));
      else
        for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
          this.complete(chunk.subarray(start, end));
          start = end + 1;
        }
      start = last + 1;
    }
    if (start < chunk.length) this.keep(chunk.subarray(start));
  }

  /** Whole lines, decoded: each to the sink. */
  private decoded(text: string): void {
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      this.sink.line(text.slice(start, end));
      start = end + 1;
    }
    this.sink.line(text.slice(start));
  }

  /** The end of the line in progress (or of one line of a chunk over the limit): to the sink, or dropped. */
  private complete(piece: Buffer): void {
    if (this.skipping === undefined && this.length + piece.length <= this.maxBytes) {
      const line = this.chunks.length === 0 ? piece : Buffer.concat([...this.chunks, piece], this.length + piece.length);
      this.chunks = [];
      this.length = 0;
      this.sink.line(line.toString('utf8'));
      return;
    }
    if (this.skipping === undefined) this.drop(piece);
    else this.skip(piece);
    const { bytes, tail } = this.skip(Buffer.alloc(0));
    this.skipping = undefined;
    this.sink.skipped?.(tail, bytes);
  }

  /** Bytes of a line still arriving: held within the limit, dropped past it, skipped after. */
  private keep(rest: Buffer): void {
    if (this.skipping !== undefined) this.skip(rest);
    else if (this.length + rest.length > this.maxBytes) this.drop(rest);
    else {
      this.chunks.push(rest);
      this.length += rest.length;
    }
    const bytes = this.skipping?.bytes ?? 0;
    if (this.sink.unbounded !== undefined && bytes > UNBOUNDED_FACTOR * this.maxBytes) {
      this.cut = true;
      this.reset();
      this.sink.unbounded(bytes);
    }
  }

  /** The line still arriving, if any and within the limit (a stream that ended without a last newline). */
  end(): void {
    const rest = this.length > 0 && this.skipping === undefined ? Buffer.concat(this.chunks, this.length) : undefined;
    this.reset();
    if (rest !== undefined) this.sink.line(rest.toString('utf8'));
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
