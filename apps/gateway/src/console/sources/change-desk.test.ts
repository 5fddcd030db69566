import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@promptyard/core';
import type { AuditEntry } from '@promptyard/core';
import { openPinBook, openPinStore } from '@promptyard/router';
import type { PinBook } from '@promptyard/router';
import { afterEach, describe, expect, it } from 'vitest';
import { createChangeDesk } from './change-desk.js';

const echo = (description: string) => ({ name: 'echo', description, inputSchema: { type: 'object' } });

let folder: string | undefined;
let book: PinBook | undefined;
afterEach(async () => {
  await book?.close();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

/** A book over a pin file where alpha/echo was approved as "Echoes." and is now seen as "Echoes, and more." under enforce. */
const changedEcho = async () => {
  folder = await mkdtemp(join(tmpdir(), 'promptyard-desk-'));
  const location = { file: join(folder, 'pins.json') };
  book = await openPinBook(location, silentLogger());
  book.review('alpha', 'enforce', 'tool', [echo('Echoes.')]);
  const review = book.review('alpha', 'enforce', 'tool', [echo('Echoes, and more.')]);
  // The book writes what it learns in the background: wait until the file holds the pending form.
  const store = await openPinStore(location, silentLogger());
  while (!(await store.load()).some((entry) => entry.pending !== undefined)) await new Promise((resolve) => setTimeout(resolve, 10));
  await store.close();
  const recorded: AuditEntry[] = [];
  const desk = createChangeDesk({
    pins: book,
    location,
    quarantined: () => [...review.quarantined.values()],
    trail: { record: (entry) => void recorded.push(entry), close: async () => {} },
    logger: silentLogger(),
  });
  return { desk, location, recorded };
};

describe('the Changes page desk', () => {
  it('lists a quarantined change with the diff pins diff shows', async () => {
    const { desk } = await changedEcho();
    const [item] = desk.pending();
    expect(item).toMatchObject({ server: 'alpha', kind: 'tool', name: 'echo', change: 'changed', fields: ['description'], held: true });
    expect(item?.diff).toContain('-Echoes.\n+Echoes, and more.');
  });

  it('approves through the pin store, as pins approve does, and audits it with the admin', async () => {
    const { desk, location, recorded } = await changedEcho();
    const [item] = desk.pending();
    expect(await desk.approve(item as NonNullable<typeof item>, item?.digest ?? '', 'ops-ann')).toBe('done');
    const store = await openPinStore(location, silentLogger());
    const [entry] = await store.load();
    await store.close();
    expect(entry?.pending).toBeUndefined();
    expect(entry?.pinned?.definition['description']).toBe('Echoes, and more.');
    expect(recorded).toEqual([
      expect.objectContaining({
        identity: 'ops-ann',
        profile: 'console',
        server: 'alpha',
        kind: 'tool',
        name: 'echo',
        decision: 'approved',
      }),
    ]);
    expect(recorded[0]?.argumentsDigest).toBeUndefined();
  });

  it('refuses a form shown for an older pending definition, and one for nothing pending', async () => {
    const { desk, recorded } = await changedEcho();
    const address = { server: 'alpha', kind: 'tool', name: 'echo' } as const;
    expect(await desk.approve(address, 'an-older-digest', 'ops-ann')).toBe('stale');
    expect(await desk.reject({ ...address, name: 'gone' }, 'x', 'ops-ann')).toBe('gone');
    expect(await desk.reject(address, 'an-older-digest', 'ops-ann')).toBe('stale');
    expect(recorded).toEqual([]);
  });

  it('keeps a rejected definition unapproved, marked with who rejected it in the pins, and audits it', async () => {
    const { desk, location, recorded } = await changedEcho();
    const [item] = desk.pending();
    expect(await desk.reject(item as NonNullable<typeof item>, item?.digest ?? '', 'ops-ann')).toBe('done');
    expect(desk.pending()[0]).toMatchObject({ held: true, rejected: { subject: 'ops-ann' } });
    expect(recorded[0]).toMatchObject({ decision: 'declined', name: 'echo', identity: 'ops-ann' });
    // In the pin file: a gateway started again, or `pins list`, reads the rejection there.
    const store = await openPinStore(location, silentLogger());
    const [entry] = await store.load();
    await store.close();
    expect(entry?.rejected).toMatchObject({ digest: item?.digest, subject: 'ops-ann' });
    // Approving it afterwards clears the rejection with the pending form.
    expect(await desk.approve(item as NonNullable<typeof item>, item?.digest ?? '', 'ops-bob')).toBe('done');
    expect(desk.pending()).toEqual([]);
  });
});
