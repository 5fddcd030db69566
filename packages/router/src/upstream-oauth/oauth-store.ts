import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, unwatchFile, watchFile, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeError, PromptyardError } from '@promptyard/core';
import { stateFolder } from '../state-folder.js';

/**
 * What the gateway keeps of one OAuth-protected server between runs: the client it registered (or
 * nothing, for a configured client), its tokens and when they were obtained, and the discovery
 * results. One JSON file per server id + URL under the user's config folder, the folder 0700 and
 * the file 0600, written whole (temporary file, then rename) so a reader never sees half of it.
 */
export interface OAuthRecord {
  readonly server: string;
  readonly url: string;
  /** RFC 7591 registration answer (client_id, client_secret …), stamped with its issuer. */
  readonly client?: Record<string, unknown>;
  /** The token response (access_token, refresh_token, expires_in …), stamped with its issuer. */
  readonly tokens?: Record<string, unknown>;
  /** When `tokens` were obtained (ms since the epoch): `expires_in` counts from here. */
  readonly obtainedAt?: number;
  readonly discovery?: Record<string, unknown>;
  readonly codeVerifier?: string;
}

/** `$XDG_CONFIG_HOME/promptyard/oauth` (else `~/.config/…`; `%APPDATA%\promptyard\oauth` on Windows). */
export const oauthFolder = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  join(stateFolder(env), 'promptyard', 'oauth');

export class OAuthStore {
  readonly path: string;
  private readonly folder: string;
  private readonly server: string;
  private readonly url: string;

  constructor(server: string, url: string, folder: string = oauthFolder()) {
    this.folder = folder;
    this.server = server;
    this.url = url;
    const digest = createHash('sha256').update(url).digest('hex').slice(0, 16);
    this.path = join(folder, `${server.replace(/[^A-Za-z0-9_.-]/g, '-')}-${digest}.json`);
  }

  read(): OAuthRecord {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { server: this.server, url: this.url };
      throw new PromptyardError(
        'BACKEND_ERROR',
        `cannot read the stored OAuth tokens of server "${this.server}" (${this.path}): ${describeError(error)}`,
        { cause: error },
      );
    }
    try {
      const record = JSON.parse(text) as OAuthRecord;
      return record.url === this.url ? record : { server: this.server, url: this.url };
    } catch {
      // A damaged file is as good as none: the next login writes a whole one.
      return { server: this.server, url: this.url };
    }
  }

  /** Applies `change` to the stored record and writes it back (0600, atomically). */
  update(change: (record: OAuthRecord) => OAuthRecord): OAuthRecord {
    const next = { ...change(this.read()), server: this.server, url: this.url };
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    chmodSync(this.folder, 0o700);
    const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
    return next;
  }

  /** The file's modification time, or 0 when there is none: how a running gateway notices a login. */
  stamp(): number {
    try {
      return statSync(this.path).mtimeMs;
    } catch {
      return 0;
    }
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }
}

/**
 * Calls `onLogin` once, when the store's file gets new tokens (`promptyard-gateway login` while the
 * gateway runs). Polls the file's status: it works wherever the folder lives. Returns the stop.
 */
export const watchForLogin = (store: OAuthStore, onLogin: () => void): (() => void) => {
  const since = store.stamp();
  let done = false;
  const stop = (): void => {
    done = true;
    unwatchFile(store.path, listener);
  };
  const listener = (): void => {
    if (done || store.stamp() === since || store.read().tokens === undefined) return;
    stop();
    onLogin();
  };
  watchFile(store.path, { interval: 250, persistent: false }, listener);
  return stop;
};
