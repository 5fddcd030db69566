import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { LineSink } from './bounded-lines.js';
import { idAtEnd, messageStart, oversizedResponse, UNBOUNDED_FACTOR, unboundedResponse } from './message-bounds.js';
import type { JsonRpcId, MessageBounds } from './message-bounds.js';

/** The requests sent to a stdio server and not answered yet (a cancelled one counts as answered). */
export class InFlight {
  private readonly pending = new Set<JsonRpcId>();

  sent(message: JSONRPCMessage): void {
    if (!('method' in message)) return;
    if ('id' in message) this.pending.add(message.id);
    else if (message.method === 'notifications/cancelled')
      this.pending.delete((message.params as { requestId?: JsonRpcId } | undefined)?.requestId ?? '');
  }

  answered(message: JSONRPCMessage): void {
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.pending.delete(message.id as JsonRpcId);
  }

  /** Every request in flight, forgotten here (the connection is being cut). */
  drain(): JsonRpcId[] {
    const ids = [...this.pending];
    this.pending.clear();
    return ids;
  }

  /** The one request in flight, if there is exactly one. */
  only(): JsonRpcId | undefined {
    if (this.pending.size !== 1) return undefined;
    for (const id of this.pending) return id;
    return undefined;
  }
}

/**
 * What a stdio server's stdout lines go to: whole ones to `line`; for one over the limit, the error
 * failing the request it answers goes to `deliver` as soon as that request is known — at once when
 * its id comes before the payload, or when it is the only request in flight; otherwise when the line
 * ends, from the id it ends with (as the TypeScript SDK orders a response). A line that does not end
 * within `UNBOUNDED_FACTOR` times the limit fails every request in flight and goes to `cut` with the
 * error that closes the connection.
 */
export const stdioLines = (
  bounds: MessageBounds,
  inFlight: InFlight,
  line: (text: string) => void,
  deliver: (message: JSONRPCMessage) => void,
  cut: (error: Error) => void,
): LineSink => {
  let awaitingId = false;
  let failedEarly: JsonRpcId | undefined;
  const fail = (id: JsonRpcId): void => {
    const response = oversizedResponse(id, bounds) as unknown as JSONRPCMessage;
    inFlight.answered(response);
    deliver(response);
  };
  return {
    line,
    oversized: (head, bytes) => {
      const start = messageStart(head);
      awaitingId = start.response && start.answers === undefined;
      failedEarly = start.answers ?? (awaitingId ? inFlight.only() : undefined);
      bounds.oversized({ bytes, where: 'stdout line', failed: failedEarly });
      if (failedEarly !== undefined) fail(failedEarly);
    },
    skipped: (tail) => {
      const id = awaitingId ? idAtEnd(tail) : undefined;
      awaitingId = false;
      if (id !== undefined && id !== failedEarly) fail(id);
    },
    unbounded: (bytes) => {
      bounds.oversized({ bytes, where: 'stdout line', failed: undefined, unbounded: true });
      for (const id of inFlight.drain()) deliver(unboundedResponse(id, bounds) as unknown as JSONRPCMessage);
      cut(
        new Error(
          `server "${bounds.server}" wrote a line that did not end within ${UNBOUNDED_FACTOR}× [limits] max_message_bytes (${bounds.maxBytes} bytes): its output was cut and it is restarted`,
        ),
      );
    },
  };
};
