/**
 * `POST /console/changes/approve` and `/reject`, after the console checked the session and its CSRF
 * token: admins only; the form names the definition (server, kind, name) and the pending form it
 * was shown (digest), so a definition that changed again since the page was drawn is not approved
 * unseen. Answers with a redirect back to the Changes page saying what was done.
 */
import type { ServerResponse } from 'node:http';
import type { PinKind } from '@promptyard/router';
import type { ChangeDesk, DeskOutcome } from './sources/change-desk.js';
import { changesPath } from './pages/changes-page.js';
import { securityHeaders } from './access/security.js';
import type { ConsoleSession } from './access/sessions.js';

const refuse = (res: ServerResponse, status: number, message: string): void => {
  res.writeHead(status, { ...securityHeaders(), 'content-type': 'text/plain; charset=utf-8' }).end(message);
};

const refusals: Readonly<Record<Exclude<DeskOutcome, 'done'>, readonly [number, string]>> = {
  gone: [404, 'Nothing of that definition is pending any more (approved or served as approved meanwhile): reload the Changes page.'],
  stale: [409, 'That definition changed again since the page showed it: reload the Changes page and review the new diff.'],
  unpinned: [404, 'No definitions are pinned on this gateway (every server has pinning = "off"): there is nothing to approve.'],
};

export const changeAction = async (
  desk: ChangeDesk | undefined,
  action: 'approve' | 'reject',
  checked: { readonly session: ConsoleSession; readonly form: URLSearchParams },
  res: ServerResponse,
): Promise<void> => {
  const { session, form } = checked;
  if (session.role !== 'admin') {
    refuse(res, 403, `Refused: to ${action} a definition needs an admin ([console] admins names the [[policy]] rules of admins).`);
    return;
  }
  const server = form.get('server') ?? '';
  const name = form.get('name') ?? '';
  const kind = form.get('kind');
  const digest = form.get('digest') ?? '';
  if (server === '' || name === '' || (kind !== 'tool' && kind !== 'prompt')) {
    refuse(res, 400, 'The form must name the definition: server, kind (tool or prompt), name and digest; reload the Changes page.');
    return;
  }
  const address = { server, kind: kind as PinKind, name };
  const outcome =
    desk === undefined
      ? 'unpinned'
      : action === 'approve'
        ? await desk.approve(address, digest, session.subject)
        : await desk.reject(address, digest, session.subject);
  if (outcome !== 'done') {
    const [status, message] = refusals[outcome];
    refuse(res, status, message);
    return;
  }
  const query = new URLSearchParams({ done: action === 'approve' ? 'approved' : 'rejected', item: `${server}/${name}` });
  res.writeHead(303, { ...securityHeaders(), location: `${changesPath}?${query}` }).end();
};
