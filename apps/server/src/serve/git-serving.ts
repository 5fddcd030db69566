/**
 * What moves a served git library besides its poll: `POST /hooks/git` (a signed push), SIGHUP, and
 * a config edit that changes a source's `ref` or `poll`; and what `/health` says of each source.
 */
import { describeError } from '@promptyard/core';
import type { Logger } from '@promptyard/core';
import { verifyPush } from '@promptyard/git-library';
import type { GitLibrary, SyncReport } from '@promptyard/git-library';
import { watchConfigFile } from '@promptyard/host';
import type { HttpRoute } from '@promptyard/mcp';
import type { ResolvedConfig } from '../config.js';

const reportBody = (report: SyncReport): Record<string, unknown> => ({
  moved: Object.fromEntries(report.moved),
  unchanged: report.unchanged,
  failed: Object.fromEntries(report.failed),
});

/** `POST /hooks/git`: a push verified with the secret syncs the sources following that repository and branch. */
export const gitWebhookRoute = (git: GitLibrary, secret: string, logger: Logger): HttpRoute => ({
  method: 'POST',
  path: '/hooks/git',
  handle: async (headers, body) => {
    const verdict = verifyPush(headers, body, secret);
    if (!verdict.ok) {
      logger.warn('git webhook refused', { reason: verdict.reason });
      return { status: verdict.status, body: { error: verdict.reason } };
    }
    if (verdict.event === undefined) return { status: 200, body: { note: 'not a push: nothing to do' } };
    const report = await git.sync(verdict.event);
    const matched = report.moved.size + report.unchanged.length + report.failed.size;
    if (matched === 0) {
      logger.info('git webhook: no source follows that repository and branch', { ref: verdict.event.ref });
      return { status: 202, body: { note: `no git library follows ${verdict.event.ref} of that repository` } };
    }
    return { status: report.failed.size > 0 ? 502 : 200, body: reportBody(report) };
  },
});

/** `/health`'s `git`: each source's commit, when it was fetched, and whether it is stale. */
export const gitHealth = (git: GitLibrary | undefined): Readonly<Record<string, unknown>> =>
  git === undefined
    ? {}
    : {
        git: git.status().map(({ kind, url, ref, refKind, path, commit, fetchedAt, stale, frozen, lastError }) => ({
          kind,
          url,
          ref,
          ...(refKind === undefined ? {} : { refKind }),
          path,
          commit,
          fetchedAt,
          stale,
          frozen,
          ...(lastError === undefined ? {} : { lastError }),
        })),
      };

const logReport = (logger: Logger, cause: string, report: SyncReport): void => {
  for (const [source, reason] of report.failed) logger.warn(`${cause}: a git library could not be synced`, { source, reason });
  logger.info(`${cause}: git libraries synced`, { moved: report.moved.size, unchanged: report.unchanged.length });
};

/** SIGHUP syncs every followed git library; returns how to stop listening. */
export const syncOnHangup = (git: GitLibrary, logger: Logger): (() => void) => {
  const onHangup = (): void => {
    git.sync().then(
      (report) => logReport(logger, 'SIGHUP', report),
      (error: unknown) => logger.warn('SIGHUP: git sync failed', { reason: describeError(error) }),
    );
  };
  process.on('SIGHUP', onHangup);
  return () => process.off('SIGHUP', onHangup);
};

/** The settings a config edit may change while serving: the git sources' refs and polls. */
const liveParts = (resolved: ResolvedConfig): string => JSON.stringify({ ...resolved.config, 'prompts.git[]': [], 'skills.git[]': [] });

/**
 * Watches the config file: an edit that changes a git source's `ref` or `poll` moves it (one
 * version); everything else applies at the next start (said once per edit). An edit that does not
 * load keeps what is served.
 */
export const reconfigureOnEdit = async (
  file: string,
  reload: () => Promise<ResolvedConfig>,
  context: { readonly git: GitLibrary; readonly resolved: ResolvedConfig; readonly logger: Logger },
): Promise<() => Promise<void>> => {
  const { git, logger } = context;
  let current = context.resolved;
  const apply = async (): Promise<void> => {
    let next: ResolvedConfig;
    try {
      next = await reload();
    } catch (error) {
      logger.error(`config change ignored; the server keeps serving what it serves. ${describeError(error)}`, { file });
      return;
    }
    if (liveParts(next) !== liveParts(current)) logger.warn('config changes other than git sources apply at the next start', { file });
    current = next;
    try {
      for (const message of await git.reconfigure(next.git.sources)) logger.warn(message, { file });
    } catch (error) {
      logger.error('a changed git source could not be served; the previous version stays', { file, reason: describeError(error) });
    }
  };
  return watchConfigFile(file, apply, logger);
};
