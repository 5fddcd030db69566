import { answeredRequest, headOf, oversizedResponse } from './message-bounds.js';
import type { JsonRpcId, MessageBounds } from './message-bounds.js';

const LF = 0x0a;
const CR = 0x0d;
const encoder = new TextEncoder();

/** The first `data:` field's value in an event's first bytes: where its JSON-RPC message starts. */
const dataOf = (head: Uint8Array): Uint8Array => {
  const text = Buffer.from(head.buffer, head.byteOffset, head.length);
  const at = text.indexOf('data:');
  if (at === -1 || (at > 0 && text[at - 1] !== LF && text[at - 1] !== CR)) return new Uint8Array(0);
  return text.subarray(text[at + 5] === 0x20 ? at + 6 : at + 5);
};

/** An SSE event carrying the error that fails `id`. */
const errorEvent = (id: JsonRpcId, bounds: MessageBounds): Uint8Array =>
  encoder.encode(`event: message\ndata: ${JSON.stringify(oversizedResponse(id, bounds))}\n\n`);

/** The index of the first CR or LF in `chunk` at or after `from`, or -1. */
const nextBreak = (chunk: Uint8Array, from: number): number => {
  for (let i = from; i < chunk.length; i++) {
    const byte = chunk[i];
    if (byte === LF || byte === CR) return i;
  }
  return -1;
};

/**
 * An SSE body passed on event by event: an event's bytes are held until the blank line that ends it,
 * then passed on whole, so the reader behind (the SDK's event parser) never buffers more than the
 * limit. An event (or a line) that passes the limit is dropped and the stream closed: the request the
 * stream answers (`answers`, a POST's), or else the request the event's first bytes show it answers,
 * gets an event carrying the error naming the limit first. Each byte is looked at once.
 */
export const boundedEvents = (bounds: MessageBounds, answers: () => readonly JsonRpcId[]): TransformStream<Uint8Array, Uint8Array> => {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  /** Bytes of the line still arriving. */
  let lineBytes = 0;
  /** The last byte was a CR: an LF right after it belongs to the same line break. */
  let afterCR = false;
  let done = false;

  const cut = (controller: TransformStreamDefaultController<Uint8Array>, pieces: Uint8Array[], bytes: number): void => {
    done = true;
    held = [];
    const posted = answers();
    const failed = posted.length > 0 ? posted : [answeredRequest(dataOf(headOf(pieces)))].filter((id) => id !== undefined);
    bounds.oversized({ bytes, where: 'SSE event', failed: failed[0] });
    for (const id of failed) controller.enqueue(errorEvent(id, bounds));
    controller.terminate();
  };

  return new TransformStream({
    transform(chunk, controller) {
      if (done) return;
      let eventStart = 0;
      let i = 0;
      for (let at = nextBreak(chunk, i); at !== -1; at = nextBreak(chunk, i)) {
        const isLF = chunk[at] === LF;
        if (isLF && afterCR && at === i) {
          afterCR = false;
          i = at + 1;
          continue;
        }
        const blank = lineBytes + (at - i) === 0;
        lineBytes = 0;
        afterCR = !isLF;
        i = at + 1;
        if (!blank) continue;
        // A blank line ends the event: it goes on whole (with the LF of a CRLF, when it is here).
        if (!isLF && chunk[i] === LF) {
          i++;
          afterCR = false;
        }
        const piece = chunk.subarray(eventStart, i);
        if (heldBytes + piece.length > bounds.maxBytes) return cut(controller, [...held, piece], heldBytes + piece.length);
        for (const part of held) controller.enqueue(part);
        controller.enqueue(piece);
        held = [];
        heldBytes = 0;
        eventStart = i;
      }
      if (i < chunk.length) {
        lineBytes += chunk.length - i;
        afterCR = false;
      }
      if (eventStart === chunk.length) return;
      const rest = chunk.subarray(eventStart);
      if (heldBytes + rest.length > bounds.maxBytes) return cut(controller, [...held, rest], heldBytes + rest.length);
      held.push(rest);
      heldBytes += rest.length;
    },
  });
};
