/**
 * Repository URLs: the form that is shown (credentials removed), the form that is compared (a push
 * payload's URLs against a source's), and the id of a source made from them.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GitSourceConfig } from '../types.js';
import { redact } from './run-git.js';

/** `url` without credentials (`https://user:token@host/x` → `https://host/x`); an ssh user name is kept. */
export const redactUrl = (url: string): string => redact(url);

const schemePattern = /^([a-z][a-z0-9+.-]*):\/\//i;
/** `[user@]host:path` as git reads it (a colon before any slash). */
const scpPattern = /^(?:[^@/]+@)?([^/:]+):(?!\/\/)(.*)$/;

/** Whether git reads `url` as a folder on this machine (a path or a `file://` URL). */
export const isLocalUrl = (url: string): boolean => {
  const scheme = schemePattern.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined) return scheme === 'file';
  return !scpPattern.test(url) || path.isAbsolute(url);
};

/** The folder a local URL names, absolute. */
export const localPath = (url: string): string => path.resolve(/^file:\/\//i.test(url) ? fileURLToPath(url) : url);

const trimRepositoryPath = (value: string): string =>
  value
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');

/**
 * One form for every way of naming a repository, to compare a webhook's repository URLs with a
 * source's: `git@host:owner/repo.git`, `ssh://git@host:22/owner/repo` and `https://user@Host/owner/repo/`
 * all become `host/owner/repo`; a local path or `file://` URL becomes the absolute path.
 */
export const normalizeRepositoryUrl = (url: string): string => {
  const trimmed = url.trim();
  if (isLocalUrl(trimmed)) return localPath(trimmed).replace(/\/+$/, '') || '/';
  if (schemePattern.test(trimmed)) {
    try {
      const parsed = new URL(trimmed);
      return `${parsed.hostname.toLowerCase()}/${trimRepositoryPath(decodeURIComponent(parsed.pathname))}`;
    } catch {
      return redactUrl(trimmed);
    }
  }
  const scp = scpPattern.exec(trimmed);
  return scp === null ? redactUrl(trimmed) : `${(scp[1] ?? '').toLowerCase()}/${trimRepositoryPath(scp[2] ?? '')}`;
};

/** A source's id: stable for its kind, repository and path (not its ref, which a reload may move). */
export const sourceId = (config: Pick<GitSourceConfig, 'kind' | 'url' | 'path'>): string =>
  `${config.kind}-${createHash('sha256')
    .update(`${normalizeRepositoryUrl(config.url)}\0${config.path}`)
    .digest('hex')
    .slice(0, 12)}`;
