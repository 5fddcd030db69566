/** What the console's unit tests render: a backend's status as the router reports it, ready by default. */
import type { BackendStatus } from '@promptyard/router';

export const serverStatus = (id: string, extra: Partial<BackendStatus> = {}): BackendStatus => ({
  id,
  state: 'ready',
  transport: 'stdio',
  restarts: 0,
  inFlight: 0,
  counts: { tools: 1, prompts: 0, resources: 0, resourceTemplates: 0 },
  ...extra,
});
