/**
 * `/console/events`: one Server-Sent Events stream per open page. It sends the page's live part (the
 * servers table; `?stream=changes` or `activity`: that page's) at once and again whenever the gateway
 * reports a change (the terminal UI's model coalesces bursts), as an event of that name that htmx swaps in; a comment every 15 s keeps proxies from closing it. The
 * stream ends when the session does. A page with more than one live part (Activity: the calls
 * waiting for approval, and the audit table) gets each as its own event on the one stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { securityHeaders } from './access/security.js';
import type { ConsoleSession, SessionStore } from './access/sessions.js';
import type { Html } from './pages/template.js';

export interface EventSource {
  /** Called after anything changed; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** One SSE event: every line of `data` its own `data:` field, as the format requires. */
const sseEvent = (name: string, data: string): string =>
  `event: ${name}\n${data
    .split(/\r?\n/)
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;

const keepAliveMs = 15_000;

/** One more live part of a page: its event (the `sse-swap` of its element) and its HTML. */
export interface LivePart {
  readonly event: string;
  readonly render: (session: ConsoleSession) => Html;
}

export const serveEvents = (
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    readonly session: ConsoleSession;
    readonly sessions: SessionStore;
    readonly source: EventSource;
    readonly render: (session: ConsoleSession) => Html;
    /** The event's name: the `sse-swap` of the page's live part. */
    readonly event?: string;
    /** The page's other live parts, sent on the same stream. */
    readonly more?: readonly LivePart[] | undefined;
  },
): void => {
  const { session, sessions, source, render, event = 'servers', more = [] } = options;
  const parts = [{ event, render }, ...more];
  res.writeHead(200, { ...securityHeaders(), 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
  res.flushHeaders();
  // The model reports every change (log lines too): only a part that changed is sent again.
  const last = parts.map(() => '');
  const send = (): void => {
    if (sessions.get(session.id) === undefined) {
      stop();
      res.end();
      return;
    }
    parts.forEach((part, index) => {
      const html = String(part.render(session));
      if (html === last[index]) return;
      last[index] = html;
      res.write(sseEvent(part.event, html));
    });
  };
  const unsubscribe = source.subscribe(send);
  const timer = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
  timer.unref();
  const stop = (): void => {
    unsubscribe();
    clearInterval(timer);
  };
  req.once('close', stop);
  send();
};
