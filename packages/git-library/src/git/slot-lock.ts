/**
 * Which checkout folder of a source this process may use: `<folder>.lock` holds the pid of the
 * process using `<folder>`; a lock whose process is gone is taken over, and this process's locks
 * are removed when it exits.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';

const held = new Set<string>();
let exitHookInstalled = false;

/** Removes what this process still holds, synchronously (an `exit` listener cannot wait). */
const releaseAllSync = (): void => {
  for (const lock of held) {
    try {
      if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
    } catch {
      // Gone already, or not ours any more: nothing to release.
    }
  }
  held.clear();
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
};

const create = async (lock: string): Promise<boolean> => {
  try {
    const handle = await open(lock, 'wx');
    try {
      await handle.writeFile(`${String(process.pid)}\n`);
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
};

/** Takes `lock` for this process: created, or taken over from a process that is gone. */
const tryLock = async (lock: string): Promise<boolean> => {
  if (await create(lock)) return true;
  const content = await readFile(lock, 'utf8').catch(() => undefined);
  if (content === undefined) return create(lock);
  const pid = Number.parseInt(content.trim(), 10);
  // An unreadable pid is a lock being written this instant (or garbage left by a crash): treated as held.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) return false;
  await unlink(lock).catch(() => undefined);
  if (!(await create(lock))) return false;
  // Two processes taking over the same dead lock at once: the one whose pid is in the file keeps it.
  return (await readFile(lock, 'utf8').catch(() => '')).trim() === String(process.pid);
};

/** The first folder `<base>-<n>` (n = 0, 1, …) whose lock this process could take. */
export const takeSlot = async (base: string): Promise<{ readonly folder: string; readonly lock: string }> => {
  for (let slot = 0; ; slot += 1) {
    const folder = `${base}-${String(slot)}`;
    const lock = `${folder}.lock`;
    if (await tryLock(lock)) {
      held.add(lock);
      if (!exitHookInstalled) {
        exitHookInstalled = true;
        process.once('exit', releaseAllSync);
      }
      return { folder, lock };
    }
  }
};

/** Gives `lock` back (when this process still holds it). */
export const releaseSlot = async (lock: string): Promise<void> => {
  if (!held.delete(lock)) return;
  const content = await readFile(lock, 'utf8').catch(() => undefined);
  if (content?.trim() === String(process.pid)) await unlink(lock).catch(() => undefined);
};
