import { writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { describeError, isoTime, PromptyardError } from '@promptyard/core';
import type { AuditEntry, AuditTrail, Logger, Metrics } from '@promptyard/core';

/**
 * The audit trail (`[audit] file`): one JSON line per decision, appended to a file of the operator's
 * (mode 0600) or written to stderr. A file trail reopens its path on `SIGHUP`, so logrotate can rename
 * the file and signal the process. Writing never throws at the caller: a failure is logged once.
 */

export interface AuditTrailOptions {
  /** The file lines are appended to; `-` or absent: stderr. Its folder must exist. */
  readonly file?: string | undefined;
  /** Where stderr lines go (each ends in a newline); default `process.stderr.write`. */
  readonly stderr?: ((line: string) => void) | undefined;
  /** Counts each decision (`promptyard_gateway_decisions_total`). */
  readonly metrics?: Metrics | undefined;
  readonly logger: Logger;
}

/** A trail as `openAuditTrail` returns it. */
export interface OpenedAuditTrail extends AuditTrail {
  /** Closes and reopens the file at the same path (after logrotate renamed it); nothing for stderr. */
  reopen(): Promise<void>;
}

/** The keys of a line, in the order they are written; `time` comes first. */
const entryKeys = [
  'identity',
  'client',
  'profile',
  'server',
  'kind',
  'name',
  'argumentsDigest',
  'decision',
  'reason',
  'durationMs',
  'traceId',
] as const satisfies readonly (keyof AuditEntry)[];

/** One entry as its JSON line (with the newline): keys in a fixed order, absent ones left out. */
export const auditLine = (entry: AuditEntry, time: Date = new Date()): string => {
  const line: Record<string, unknown> = { time: isoTime(time.getTime()) };
  for (const key of entryKeys) if (entry[key] !== undefined) line[key] = entry[key];
  return `${JSON.stringify(line)}\n`;
};

/** The open file trails: one `SIGHUP` handler reopens them all, registered while any is open. */
const reopenOnHangup = new Set<OpenedAuditTrail>();
const hangup = (): void => {
  for (const trail of reopenOnHangup) void trail.reopen();
};
const watchHangup = (trail: OpenedAuditTrail): void => {
  if (reopenOnHangup.size === 0) process.on('SIGHUP', hangup);
  reopenOnHangup.add(trail);
};
const unwatchHangup = (trail: OpenedAuditTrail): void => {
  if (reopenOnHangup.delete(trail) && reopenOnHangup.size === 0) process.off('SIGHUP', hangup);
};

const openFile = async (file: string): Promise<FileHandle> => {
  try {
    return await open(file, 'a', 0o600);
  } catch (error) {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `Cannot open the audit file ${JSON.stringify(file)} ([audit] file): ${describeError(error)}. Create its folder, make it writable by this process, or set file = "-" to write the audit trail to stderr.`,
      { cause: error },
    );
  }
};

/**
 * How long lines wait to be written together. Measured on the stdio echo bench (bench/README.md):
 * one append per call cost ~8% of a call's p50 and ~15% of calls/s; written every 25 ms, the trail
 * costs next to nothing. Lines still waiting when the process exits are written synchronously.
 */
const FLUSH_MS = 25;

/**
 * Lines appended to one file in the order they were recorded, written together every `FLUSH_MS`.
 * Every step (writes, reopening, closing) runs in turn, and a line goes to the file open when it was
 * recorded.
 */
class FileTrail implements OpenedAuditTrail {
  private handle: FileHandle | undefined;
  /** Entries recorded since the last write was queued. */
  private pending: AuditEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private tail: Promise<void> = Promise.resolve();
  private failed = false;
  private readonly file: string;
  private readonly metrics: Metrics | undefined;
  private readonly logger: Logger;
  /** An exit with lines still waiting (no time for an asynchronous write) writes them at once. */
  private readonly onExit = (): void => {
    if (this.handle === undefined || this.pending.length === 0) return;
    try {
      writeSync(this.handle.fd, this.pending.map((entry) => auditLine(entry)).join(''));
    } catch {
      // Exiting: nowhere left to say it.
    }
  };

  constructor(file: string, handle: FileHandle, metrics: Metrics | undefined, logger: Logger) {
    this.file = file;
    this.handle = handle;
    this.metrics = metrics;
    this.logger = logger;
    process.on('exit', this.onExit);
  }

  record(entry: AuditEntry): void {
    this.metrics?.decided(entry.decision, entry.profile);
    if (this.handle === undefined) {
      this.fail('the trail is closed', undefined);
      return;
    }
    this.pending.push(entry);
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Queues the write of what waits; resolves once it is written. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const entries = this.pending;
    if (entries.length === 0) return this.tail;
    this.pending = [];
    return this.enqueue(() => this.write(entries.map((entry) => auditLine(entry))));
  }

  reopen(): Promise<void> {
    // Lines recorded until now go to the old file, those recorded from now on to the reopened one.
    void this.flush();
    return this.enqueue(async () => {
      if (this.handle === undefined) return;
      let next: FileHandle;
      try {
        next = await openFile(this.file);
      } catch (error) {
        // The renamed file keeps the lines: better than losing them.
        this.logger.error('audit trail: cannot reopen its file, still writing to the old one', { reason: describeError(error) });
        return;
      }
      const previous = this.handle;
      this.handle = next;
      await this.closeQuietly(previous);
    });
  }

  close(): Promise<void> {
    unwatchHangup(this);
    void this.flush();
    process.off('exit', this.onExit);
    return this.enqueue(async () => {
      const handle = this.handle;
      this.handle = undefined;
      if (handle !== undefined) await this.closeQuietly(handle);
    });
  }

  /** Runs `step` after every step before it; a step's failure does not stop the next. */
  private enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.tail.then(step).catch((error: unknown) => this.fail('the audit trail failed', error));
    this.tail = run;
    return run;
  }

  private async write(lines: readonly string[]): Promise<void> {
    if (this.handle === undefined) return;
    try {
      await this.handle.appendFile(lines.join(''));
    } catch (error) {
      this.fail(`cannot write ${JSON.stringify(this.file)}; ${lines.length} audit line(s) lost`, error);
    }
  }

  private async closeQuietly(handle: FileHandle): Promise<void> {
    try {
      await handle.close();
    } catch (error) {
      this.fail(`cannot close ${JSON.stringify(this.file)}`, error);
    }
  }

  /** Logs the first failure only: a full disk would otherwise log once per call. */
  private fail(what: string, error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.logger.error(`audit trail: ${what} (further failures are not logged)`, {
      file: this.file,
      ...(error === undefined ? {} : { reason: describeError(error) }),
    });
  }
}

/** Lines to stderr (`file = "-"` or none). */
const stderrTrail = (write: (line: string) => void, metrics: Metrics | undefined, logger: Logger): OpenedAuditTrail => {
  let failed = false;
  return {
    record: (entry) => {
      metrics?.decided(entry.decision, entry.profile);
      try {
        write(auditLine(entry));
      } catch (error) {
        if (failed) return;
        failed = true;
        logger.error('audit trail: cannot write to stderr (further failures are not logged)', { reason: describeError(error) });
      }
    },
    reopen: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
};

/**
 * Opens the audit trail: the file (created with mode 0600 if missing, appended to) or stderr. A file
 * that cannot be opened fails here, naming it and what to do.
 */
export const openAuditTrail = async (options: AuditTrailOptions): Promise<OpenedAuditTrail> => {
  const { file, metrics, logger } = options;
  if (file === undefined || file === '-') {
    const write = options.stderr ?? ((line: string) => void process.stderr.write(line));
    return stderrTrail(write, metrics, logger);
  }
  const trail = new FileTrail(file, await openFile(file), metrics, logger);
  watchHangup(trail);
  return trail;
};
