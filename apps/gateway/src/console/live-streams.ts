/**
 * What one `/console/events` stream follows: the Servers page's table (no `stream`), the Changes
 * page's list (`?stream=changes`) or the Activity page's table (`?stream=activity`, with the page's
 * filter in the same query), each sent again whenever the gateway or the audit stream changes (the
 * servers table also every 5 s, for its calls of the last minutes).
 */
import type { UiModel } from '../ui/model.js';
import type { ActivityFeed } from './activity-feed.js';
import { activityFilterOf, renderActivityTable } from './activity-page.js';
import type { ChangeDesk } from './change-desk.js';
import { renderChangesList } from './changes-page.js';
import type { EventSource, serveEvents } from './events.js';
import { renderServersTable } from './servers-page.js';

export interface LiveSources {
  readonly model: Pick<UiModel, 'servers' | 'subscribe'>;
  readonly changes?: ChangeDesk | undefined;
  readonly activity?: ActivityFeed | undefined;
}

/** The servers' recent calls change with every call and as the window slides, which no event reports: their table is also looked at this often. */
const serversRefreshMs = 5000;

/** `source`, and a tick every `ms` while it is followed. */
const ticking = (source: EventSource, ms: number): EventSource => ({
  subscribe: (listener) => {
    const stop = source.subscribe(listener);
    const timer = setInterval(listener, ms);
    timer.unref();
    return () => {
      stop();
      clearInterval(timer);
    };
  },
});

/** What `/console/events?stream=…` follows: the servers table, the changes or the activity (with the page's filter). */
export const liveStream = (
  context: LiveSources,
  query: URLSearchParams,
): Omit<Parameters<typeof serveEvents>[2], 'session' | 'sessions'> => {
  const { model, activity, changes } = context;
  const source = {
    subscribe: (listener: () => void) => {
      const stops = [model.subscribe(listener), activity?.subscribe(listener) ?? (() => {})];
      return () => stops.forEach((stop) => stop());
    },
  };
  const stream = query.get('stream');
  if (stream === 'changes') return { source, event: 'changes', render: (session) => renderChangesList(changes, session) };
  if (stream === 'activity') return { source, event: 'activity', render: () => renderActivityTable(activity, activityFilterOf(query)) };
  return { source: ticking(source, serversRefreshMs), render: (session) => renderServersTable(model.servers(), session) };
};
