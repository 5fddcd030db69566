import { isoTime } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { UNBOUNDED_FACTOR } from '../sdk/message-bounds.js';
import type { OversizedMessage } from '../sdk/message-bounds.js';

/** What `/health` shows of the messages over `[limits] max_message_bytes` a backend sent (absent while there were none). */
export interface OversizedStatus {
  readonly oversizedMessages?: number | undefined;
  /** The last one: the bytes read of it when it was dropped, and when. */
  readonly lastOversized?: { readonly bytes: number; readonly where: string; readonly at: string } | undefined;
}

/** A backend's messages over the limit: each logged once on stderr, counted (since the gateway started), the last kept. */
export class OversizeTally {
  private count = 0;
  private last: OversizedStatus['lastOversized'];
  private readonly server: string;
  private readonly maxBytes: number;
  private readonly logger: Logger;
  private readonly counted: () => void;

  constructor(server: string, maxBytes: number, logger: Logger, counted: () => void) {
    this.server = server;
    this.maxBytes = maxBytes;
    this.logger = logger;
    this.counted = counted;
  }

  record(message: OversizedMessage): void {
    this.count++;
    this.last = { bytes: message.bytes, where: message.where, at: isoTime() };
    const outcome = message.failed === undefined ? '' : `; request ${JSON.stringify(message.failed)} failed with an error naming the limit`;
    this.logger.warn(
      message.unbounded === true
        ? `server "${this.server}" wrote a line that did not end within ${UNBOUNDED_FACTOR}× [limits] max_message_bytes (${UNBOUNDED_FACTOR * this.maxBytes} bytes, read from: ${message.where}); its output was cut, the requests in flight failed with an error naming the limit, and the server is restarted`
        : `server "${this.server}" sent a message over [limits] max_message_bytes (${this.maxBytes} bytes, read from: ${message.where}); it was dropped${outcome}`,
      { server: this.server, bytes: message.bytes },
    );
    this.counted();
  }

  status(): OversizedStatus {
    return this.count === 0 ? {} : { oversizedMessages: this.count, lastOversized: this.last };
  }
}
