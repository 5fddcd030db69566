/**
 * A 2025-11-25 session's SSE events kept in this process, so that a client whose stream dropped
 * resumes it with `Last-Event-ID` on a node without a cluster (the cluster's store does the same in
 * Redis, across replicas). It implements the SDK's event store contract (core's `SessionEventStore`).
 */
import { PromptyardError } from '@promptyard/core';
import type { JsonRpcMessage, SessionEventStore } from '@promptyard/core';
import { processEventBudget } from './event-budget.js';
import type { BudgetedEvent, EventBudget } from './event-budget.js';
import { OldestFirst } from './oldest-first.js';

/** What one session's store may hold; it lives and is dropped with its session. */
export interface EventStoreBounds {
  /** Events kept per stream: beyond it the stream's oldest leaves. */
  readonly maxEventsPerStream: number;
  /**
   * Bytes kept over all the session's streams (each event's JSON plus `entryOverheadBytes`): beyond
   * it the session's oldest event leaves. An event larger than this is sent but not kept.
   */
  readonly maxBytes: number;
  /** An event (and a stream's start) older than this leaves. */
  readonly maxAgeMs: number;
}

/** 1,000 events a stream, 4 MiB a session, 5 minutes: a client that reconnects within its `retry` finds what it missed. */
const defaultEventStoreBounds: EventStoreBounds = { maxEventsPerStream: 1000, maxBytes: 4 * 1024 * 1024, maxAgeMs: 5 * 60_000 };

/** What each kept entry costs beside its JSON, so that streams with no events are bounded too. */
export const entryOverheadBytes = 64;

/** An event, or a stream's start (a priming event: no message, a position to replay after). */
class Entry implements BudgetedEvent {
  readonly store: MemoryEventStore;
  readonly stream: StreamLog;
  readonly seq: number;
  /** The message as JSON (let go when the entry leaves); `undefined` for a stream's start. */
  json: string | undefined;
  readonly bytes: number;
  readonly at: number;
  kept = true;

  constructor(store: MemoryEventStore, stream: StreamLog, seq: number, json: string | undefined, at: number) {
    this.store = store;
    this.stream = stream;
    this.seq = seq;
    this.json = json;
    this.bytes = (json?.length ?? 0) + entryOverheadBytes;
    this.at = at;
  }

  leave(): void {
    this.store.evict(this);
  }
}

interface StreamLog {
  readonly id: string;
  /** Kept entries, oldest first. */
  readonly entries: Entry[];
  /** A resume must be after this sequence number or a later one: events before it left (or the stream began there). */
  floor: number;
}

/** An event id is `<streamId>|<seq>`: the stream (the SDK's ids have no `|`) and the session-wide sequence number. */
const formatEventId = (streamId: string, seq: number): string => `${streamId}|${seq}`;

export const parseEventId = (eventId: string): { readonly streamId: string; readonly seq: number } | undefined => {
  const at = eventId.lastIndexOf('|');
  const seq = Number(eventId.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(seq) || seq <= 0) return undefined;
  return { streamId: eventId.slice(0, at), seq };
};

const shown = (eventId: string): string => JSON.stringify(eventId.length > 80 ? `${eventId.slice(0, 80)}…` : eventId);

export class MemoryEventStore implements SessionEventStore {
  readonly #bounds: EventStoreBounds;
  readonly #budget: EventBudget;
  readonly #now: () => number;
  readonly #streams = new Map<string, StreamLog>();
  /** Every kept entry of the session, oldest first. */
  readonly #queue = new OldestFirst<Entry>();
  #seq = 0;
  #bytes = 0;

  /** `budget`: what all sessions' stores hold together (the process's, shared, unless a test gives its own). */
  constructor(bounds: EventStoreBounds = defaultEventStoreBounds, now: () => number = Date.now, budget: EventBudget = processEventBudget) {
    this.#bounds = bounds;
    this.#budget = budget;
    this.#now = now;
  }

  /** Bytes held now (as the bounds count them). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Streams held now. */
  get streams(): number {
    return this.#streams.size;
  }

  storeEvent(streamId: string, message: JsonRpcMessage): Promise<string> {
    const now = this.#now();
    this.prune(now);
    const seq = ++this.#seq;
    // The SDK's priming event is `{}`: a position in the stream, kept as a start without a message.
    const json = Object.keys(message).length === 0 ? undefined : JSON.stringify(message);
    const bytes = (json?.length ?? 0) + entryOverheadBytes;
    if (bytes > this.#bounds.maxBytes) {
      const held = this.#streams.get(streamId);
      if (held !== undefined) held.floor = seq;
      return Promise.resolve(formatEventId(streamId, seq));
    }
    const stream = this.#streams.get(streamId) ?? this.#open(streamId, seq);
    const entry = new Entry(this, stream, seq, json, now);
    stream.entries.push(entry);
    this.#queue.push(entry);
    this.#bytes += bytes;
    if (stream.entries.length > this.#bounds.maxEventsPerStream) this.#drop(stream.entries[0] as Entry);
    while (this.#bytes > this.#bounds.maxBytes) this.#drop(this.#queue.oldest() as Entry);
    // Past the process's budget, the oldest events of any session leave (this one too if it is all there is).
    if (entry.kept) this.#budget.added(entry);
    this.#queue.compact();
    return Promise.resolve(formatEventId(streamId, seq));
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    this.prune(this.#now());
    const parsed = parseEventId(eventId);
    return Promise.resolve(parsed !== undefined && this.#resumable(parsed.streamId, parsed.seq) ? parsed.streamId : undefined);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JsonRpcMessage) => Promise<void> },
  ): Promise<string> {
    this.prune(this.#now());
    const parsed = parseEventId(lastEventId);
    const stream = parsed === undefined ? undefined : this.#streams.get(parsed.streamId);
    if (parsed === undefined || stream === undefined || !this.#resumable(parsed.streamId, parsed.seq)) {
      throw new PromptyardError(
        'INVALID_REQUEST',
        `Last-Event-ID ${shown(lastEventId)} is not kept (a session keeps its streams' events for ${this.#bounds.maxAgeMs / 1000} s, at most ${this.#bounds.maxEventsPerStream} a stream and ${this.#bounds.maxBytes} bytes in all); reconnect without Last-Event-ID to open a new stream`,
      );
    }
    // Events stored while the replay awaits `send` are replayed too: the stream has no gap when it goes live.
    let cursor = parsed.seq;
    for (;;) {
      // Taken with their JSON: an entry that leaves during the replay is still sent.
      const pending = stream.entries.flatMap(({ seq, json }) => (seq > cursor && json !== undefined ? [{ seq, json }] : []));
      if (pending.length === 0) return stream.id;
      for (const { seq, json } of pending) {
        await send(formatEventId(stream.id, seq), JSON.parse(json) as JsonRpcMessage);
        cursor = seq;
      }
    }
  }

  /** Drops what is older than `maxAgeMs` (each store and replay does; the session table's sweep too, for idle sessions). */
  prune(now: number = this.#now()): void {
    const cutoff = now - this.#bounds.maxAgeMs;
    for (let entry = this.#queue.oldest(); entry !== undefined && entry.at < cutoff; entry = this.#queue.oldest()) this.#drop(entry);
  }

  /** Drops an event the process's budget has no room for (the oldest of all sessions' events). */
  evict(event: BudgetedEvent): void {
    if (event.kept && event instanceof Entry && event.store === this) this.#drop(event);
  }

  /** Lets every event go, its session closed: the budget has their room back at once. */
  clear(): void {
    for (let entry = this.#queue.oldest(); entry !== undefined; entry = this.#queue.oldest()) this.#drop(entry);
    this.#queue.clear();
  }

  /** A stream held from `seq` on (a stream whose entries all left starts again: nothing before it replays). */
  #open(streamId: string, seq: number): StreamLog {
    const stream: StreamLog = { id: streamId, entries: [], floor: seq };
    this.#streams.set(streamId, stream);
    return stream;
  }

  /** A resume after `seq` misses nothing: the stream is held, `seq` was issued, and no event after it left. */
  #resumable(streamId: string, seq: number): boolean {
    const stream = this.#streams.get(streamId);
    return stream !== undefined && seq <= this.#seq && stream.floor <= seq;
  }

  #drop(entry: Entry): void {
    entry.kept = false;
    this.#queue.left();
    this.#bytes -= entry.bytes;
    this.#budget.released(entry);
    const { stream } = entry;
    // Entries leave a stream oldest first, whatever the reason.
    stream.entries.shift();
    if (entry.json !== undefined) stream.floor = Math.max(stream.floor, entry.seq);
    entry.json = undefined;
    if (stream.entries.length === 0) this.#streams.delete(stream.id);
  }
}
