import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFilePinStore } from './file-pin-store.js';
import { openPinBook } from './open-pin-book.js';
import { approvePins, rejectionOf, rejectPins } from './pin-admin.js';
import type { PinStore } from './pin-store.js';
import type { PinEntry } from './pin-types.js';
import { nextChange, recordingLogger, temporaryFolder, tool, until } from './test-pins.js';

let folder: Awaited<ReturnType<typeof temporaryFolder>>;
let file: string;
const open: { close(): Promise<void> }[] = [];
beforeEach(async () => {
  folder = await temporaryFolder();
  file = join(folder.path, 'state', 'pins', 'gateway-0123456789abcdef.json');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
  await folder.remove();
});
const store = async (): Promise<PinStore> => {
  const opened = await createFilePinStore(file, recordingLogger().logger);
  open.push(opened);
  return opened;
};
const entry = (name: string, description: string): PinEntry => ({
  server: 'github',
  kind: 'tool',
  name,
  pinned: { digest: 'a'.repeat(64), definition: { name, description }, at: '2026-11-26T00:00:00.000Z' },
});

describe('the pin file', () => {
  it('is written whole, 0600 in a 0700 folder, versioned, with no temporary file left', async () => {
    const pins = await store();
    expect(await pins.load()).toEqual([]);
    expect(await pins.write([entry('b', 'B'), entry('a', 'A')])).toBe(true);
    expect(await pins.write([entry('a', 'changed'), entry('c', 'C')], { onlyIfAbsent: true })).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(folder.path, 'state', 'pins'))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(folder.path, 'state', 'pins'))).toEqual(['gateway-0123456789abcdef.json']);
    const text = JSON.parse(await readFile(file, 'utf8')) as { version: number; pins: PinEntry[] };
    expect(text.version).toBe(1);
    expect(text.pins.map((pin) => [pin.name, pin.pinned?.definition['description']])).toEqual([
      ['a', 'A'],
      ['b', 'B'],
      ['c', 'C'],
    ]);
    await pins.remove([entry('b', 'B')]);
    expect((await pins.load()).map((pin) => pin.name)).toEqual(['a', 'c']);
  });

  it('tells a book of a change made outside this process, not of its own writes', async () => {
    const book = await openPinBook({ file }, recordingLogger().logger);
    open.push(book);
    let heard = 0;
    book.onChange(() => (heard += 1));
    book.review('github', 'enforce', 'tool', [tool('create_issue', 'Create')]);
    const other = await store();
    const changed = nextChange(book);
    await other.write([entry('from_elsewhere', 'written by another process')]);
    await changed;
    expect(heard).toBe(1);
    expect(
      book
        .entries()
        .map((pin) => pin.name)
        .sort(),
    ).toEqual(['create_issue', 'from_elsewhere']);
  });

  it('is refused, naming the file and what to do, when it does not parse or has the wrong shape', async () => {
    const { logger } = recordingLogger();
    await (await store()).write([entry('a', 'A')]);
    await writeFile(file, '{ "version": 1, "pins": [ { "server": "github"');
    await expect(openPinBook({ file }, logger)).rejects.toThrow(
      new RegExp(`^the pin file ${file} is not valid JSON .*: fix it, or forget the pins with \`promptyard-gateway pins reset\``),
    );
    await writeFile(file, JSON.stringify({ version: 2, pins: [] }));
    await expect(openPinBook({ file }, logger)).rejects.toThrow(/is not a pin file of this version \(expected \{ "version": 1/);
    await writeFile(file, JSON.stringify({ version: 1, pins: [{ server: 'github', kind: 'tool', name: 'x' }] }));
    await expect(openPinBook({ file }, logger)).rejects.toThrow(/has a broken entry: pins\[0\] has neither "pinned" nor "pending"/);
    await expect(openPinBook({ file }, logger)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });

  it('keeps the last good pins when the file breaks under a running book, and says so', async () => {
    const { logger, waitFor } = recordingLogger();
    const book = await openPinBook({ file }, logger);
    open.push(book);
    book.review('github', 'enforce', 'tool', [tool('create_issue', 'Create')]);
    const other = await store();
    const changed = nextChange(book);
    await other.write([entry('second', 'Second')]);
    await changed;
    await writeFile(file, 'not json');
    expect(await waitFor(/cannot be read/)).toContain(`the pin file ${file} is not valid JSON`);
    expect(book.review('github', 'enforce', 'tool', [tool('create_issue', 'Create')]).served).toHaveLength(1);
    expect(book.entries()).toHaveLength(2);
  });

  it('keeps a rejection with the pending form, for a second store on the file too, until a newer form or an approval clears it', async () => {
    const book = await openPinBook({ file }, recordingLogger().logger);
    open.push(book);
    book.review('github', 'enforce', 'tool', [tool('create_issue', 'Create')]);
    book.review('github', 'enforce', 'tool', [tool('create_issue', 'Create, and leak')]);
    const first = await store();
    const [pending] = await until(first, (entries) => entries[0]?.pending !== undefined);
    // A rejection given on an older form is not taken.
    expect(await rejectPins(first, { server: 'github' }, { subject: 'ops-ann', digest: 'an-older-digest' })).toEqual([]);
    const heard = nextChange(book);
    const [rejected] = await rejectPins(first, { server: 'github', name: 'create_issue', kind: 'tool' }, { subject: 'ops-ann' });
    expect(rejected?.rejected).toMatchObject({ digest: pending?.pending?.digest, subject: 'ops-ann' });
    // Written into the file: another store (a restarted gateway, `pins list`) reads it; the running book hears it.
    const second = await store();
    expect(rejectionOf((await second.load())[0]!)).toEqual(rejected?.rejected);
    await heard;
    expect(rejectionOf(book.entries()[0]!)?.subject).toBe('ops-ann');
    // Still held back.
    expect(book.review('github', 'enforce', 'tool', [tool('create_issue', 'Create, and leak')]).quarantined.has('create_issue')).toBe(true);

    // A newer pending form is reviewed anew: the rejection is gone with the form it was given on.
    book.review('github', 'enforce', 'tool', [tool('create_issue', 'Create, and leak more')]);
    const [newer] = await until(second, (entries) => entries[0]?.pending?.definition['description'] === 'Create, and leak more');
    expect(newer?.rejected).toBeUndefined();
    await rejectPins(second, {}, { subject: 'ops-bob' });
    await approvePins(second, { server: 'github' });
    const [approved] = await second.load();
    expect(approved).toEqual({ server: 'github', kind: 'tool', name: 'create_issue', pinned: newer?.pending });
  });

  it('loads a pin file written before rejections were kept, and refuses a broken rejection', async () => {
    const old: PinEntry = { ...entry('a', 'A'), pending: entry('a', 'A, changed').pinned };
    const pins = await store();
    await writeFile(file, JSON.stringify({ version: 1, pins: [old] }));
    expect(await pins.load()).toEqual([old]);
    expect(rejectionOf(old)).toBeUndefined();
    await writeFile(file, JSON.stringify({ version: 1, pins: [{ ...old, rejected: { subject: 'ops-ann' } }] }));
    await expect(pins.load()).rejects.toThrow(/pins\[0\]\.rejected must be an object with "digest", "subject" and "at"/);
  });
});
