import type { ChildProcess } from 'node:child_process';
import { parseJSONRPCMessage, serializeMessage } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { BoundedLines } from './bounded-lines.js';
import { adoptEarlyChild, spawnChild } from './early-spawn.js';
import type { ChildSpec } from './early-spawn.js';
import { killGroup, liveChildren } from './kill.js';
import type { MessageBounds } from './message-bounds.js';
import { InFlight, stdioLines } from './stdio-lines.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One line from the child. A response to the gateway's own request gets its JSON-RPC shape checked
 * here: whoever asked checks the rest (the SDK client against the request's result schema, or the
 * downstream client of a relayed call), and the SDK's schema parse of every response cost more than
 * the rest of the hop. Requests and notifications get the SDK's full check.
 */
const parseLine = (line: string): JSONRPCMessage => {
  const value: unknown = JSON.parse(line);
  if (
    isObject(value) &&
    value['jsonrpc'] === '2.0' &&
    !('method' in value) &&
    (typeof value['id'] === 'string' || Number.isInteger(value['id']))
  ) {
    const { result, error } = value;
    if (isObject(result) && error === undefined) return value as unknown as JSONRPCMessage;
    if (isObject(error) && result === undefined && Number.isInteger(error['code']) && typeof error['message'] === 'string')
      return value as unknown as JSONRPCMessage;
  }
  return parseJSONRPCMessage(value);
};

/**
 * Newline-delimited JSON-RPC over a child's stdin/stdout, like the SDK's stdio client transport, but
 * the child leads its own process group so stopping it also stops whatever it spawned (`npx`,
 * shells, language servers), its stderr is handed to the caller line by line, and its messages are
 * bounded by `[limits] max_message_bytes` while they are read: a response over the limit fails its
 * request with an error naming the limit (`stdio-lines.ts`), and is skipped to its end; one that
 * never ends is cut: the child is stopped and the transport closes with the error saying why.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  /** The child's stdout, read line by line within the limit. */
  private readonly stdout: BoundedLines;
  /** Which request a response over the limit answers, when it is the only one. */
  private readonly inFlight = new InFlight();
  private closed = false;
  private stderrTail = '';
  private outgoing: string[] = [];
  private flushing: Promise<void> | undefined;

  private readonly spec: ChildSpec;
  private readonly onStderr: (line: string) => void;

  constructor(spec: ChildSpec, onStderr: (line: string) => void, bounds: MessageBounds) {
    this.spec = spec;
    this.onStderr = onStderr;
    this.stdout = new BoundedLines(
      bounds.maxBytes,
      stdioLines(
        bounds,
        this.inFlight,
        (line) => this.received(line),
        (message) => this.onmessage?.(message),
        (error) => this.cut(error),
      ),
    );
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns the child, or takes over the one `spawnEarly` started for the same spec. */
  start(): Promise<void> {
    const early = adoptEarlyChild(this.spec);
    return new Promise((resolve, reject) => {
      const child = early?.child ?? spawnChild(this.spec);
      this.child = child;
      let started = false;
      const failed = (error: Error): void => {
        const reason =
          (error as NodeJS.ErrnoException).code === 'ENOENT'
            ? new Error(`command "${this.spec.command}" was not found: install it or give its full path in the server's "command"`)
            : error;
        if (!started) reject(reason);
        else this.onerror?.(reason);
        this.finish();
      };
      const spawned = (): void => {
        started = true;
        if (child.pid !== undefined) liveChildren.add(child.pid);
        resolve();
      };
      child.once('error', failed);
      if (early === undefined) child.once('spawn', spawned);
      else
        void early.started.then(() => {
          if (early.error !== undefined) return failed(early.error);
          spawned();
          // It may have ended before it was taken over; its stdout, if any, was read above by then.
          if (early.closed) setImmediate(() => this.finish());
        });
      child.once('close', () => this.finish());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.stdout.push(chunk));
      const onStderr = (chunk: Buffer): void => {
        const text = this.stderrTail + chunk.toString('utf8');
        const lines = text.split('\n');
        this.stderrTail = (lines.pop() ?? '').slice(-8192);
        for (const line of lines) if (line.trim() !== '') this.onStderr(line.replace(/\r$/, ''));
      };
      for (const chunk of early?.stderr ?? []) onStderr(chunk);
      child.stderr?.on('data', onStderr);
    });
  }

  /** One line from the child's stdout, whole. */
  private received(text: string): void {
    let message: JSONRPCMessage;
    try {
      message = parseLine(text.endsWith('\r') ? text.slice(0, -1) : text);
    } catch (error) {
      // A line that is not JSON is skipped (a stray log line), as the SDK's transport does.
      if (!(error instanceof SyntaxError)) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.inFlight.answered(message);
    this.onmessage?.(message);
  }

  /**
   * Messages sent in one event-loop turn go out in one write: under load (many calls in flight) the
   * child reads a batch per wake-up instead of one line per system call.
   */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || this.closed) return Promise.reject(new Error('the server process is not running'));
    this.inFlight.sent(message);
    this.outgoing.push(serializeMessage(message));
    if (this.flushing === undefined) {
      this.flushing = new Promise((resolve) => {
        setImmediate(() => {
          const batch = this.outgoing.join('');
          this.outgoing = [];
          this.flushing = undefined;
          if (this.closed || stdin.destroyed) return resolve();
          if (stdin.write(batch)) resolve();
          else stdin.once('drain', resolve);
        });
      });
    }
    return this.flushing;
  }

  /** Closes stdin, then SIGTERM to the group, then SIGKILL after `graceMs`. */
  async close(graceMs = 2000): Promise<void> {
    const child = this.child;
    if (child === undefined || this.closed) return this.finish();
    const pid = child.pid;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin?.end();
    if (pid !== undefined) {
      const term = setTimeout(() => killGroup(pid, 'SIGTERM'), Math.min(200, graceMs));
      const kill = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
      let deadline: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (deadline = setTimeout(resolve, graceMs + 500)))]);
      // Left running, the deadline would hold the event loop (and `status`'s exit) for 2.5 s.
      clearTimeout(deadline);
      clearTimeout(term);
      clearTimeout(kill);
      // Whatever the leader left behind in its group goes too.
      killGroup(pid, 'SIGKILL');
    }
    this.finish();
  }

  /** The child's output is unbounded: reported, then the child stopped at once (its group killed) and the transport closed, for a restart. */
  private cut(error: Error): void {
    if (this.closed) return;
    this.onerror?.(error);
    this.child?.stdout?.destroy();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    const pid = this.child?.pid;
    if (pid !== undefined) {
      liveChildren.delete(pid);
      killGroup(pid, 'SIGKILL');
    }
    if (this.stderrTail.trim() !== '') this.onStderr(this.stderrTail);
    this.stderrTail = '';
    this.stdout.reset();
    this.onclose?.();
  }
}
