/**
 * What one `/console/events` stream follows: the Servers page's table (no `stream`), the Changes
 * page's list (`?stream=changes`), the Activity page's table (`?stream=activity`, with the page's
 * filter in the same query), each sent again whenever the gateway or the audit stream changes, or the
 * Sessions page's table (`?stream=sessions`), whenever the endpoint's clients change.
 */
import type { ClientRoster } from '@promptyard/mcp';
import type { UiModel } from '../ui/model.js';
import type { ActivityFeed } from './activity-feed.js';
import { activityFilterOf, renderActivityTable } from './activity-page.js';
import type { ChangeDesk } from './change-desk.js';
import { renderChangesList } from './changes-page.js';
import type { serveEvents } from './events.js';
import { renderServersTable } from './servers-page.js';
import { renderSessionsTable } from './sessions-page.js';

export interface LiveSources {
  readonly model: Pick<UiModel, 'servers' | 'subscribe'>;
  readonly changes?: ChangeDesk | undefined;
  readonly activity?: ActivityFeed | undefined;
  readonly clients: ClientRoster;
}

/** What `/console/events?stream=…` follows: the servers table, the changes, the activity (with the page's filter) or the sessions. */
export const liveStream = (
  context: LiveSources,
  query: URLSearchParams,
): Omit<Parameters<typeof serveEvents>[2], 'session' | 'sessions'> => {
  const { model, activity, changes, clients } = context;
  const source = {
    subscribe: (listener: () => void) => {
      const stops = [model.subscribe(listener), activity?.subscribe(listener) ?? (() => {})];
      return () => stops.forEach((stop) => stop());
    },
  };
  const stream = query.get('stream');
  if (stream === 'sessions')
    return { source: { subscribe: clients.onClientsChange }, event: 'sessions', render: () => renderSessionsTable(clients.clients()) };
  if (stream === 'changes') return { source, event: 'changes', render: (session) => renderChangesList(changes, session) };
  if (stream === 'activity') return { source, event: 'activity', render: () => renderActivityTable(activity, activityFilterOf(query)) };
  return { source, render: (session) => renderServersTable(model.servers(), session) };
};
