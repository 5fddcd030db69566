import { createCardIndex } from '@promptyard/router';
import type { BackendStatus, Hit, PinChange, PromptCard, ToolCard } from '@promptyard/router';
import type { LogLine, PromptInfo, ResourceInfo, TemplateInfo, ToolInfo, UiModel } from './model.js';

/** An in-memory UiModel for component tests: plain data in, every action recorded. */
export interface TestModel extends UiModel {
  readonly calls: {
    readonly callTool: { readonly name: string; readonly args: Record<string, unknown> }[];
    readonly renderPrompt: { readonly name: string; readonly args: Record<string, string> }[];
    readonly readResource: string[];
    readonly restart: string[];
    readonly setEnabled: { readonly server: string; readonly enabled: boolean }[];
  };
  /** Replaces some of the data and notifies subscribers, as the router does on a change. */
  update(data: Partial<TestData>): void;
  log(line: Omit<LogLine, 'seq' | 'time'> & { readonly time?: Date }): void;
  readonly listeners: number;
}

export interface TestData {
  servers: BackendStatus[];
  tools: ToolInfo[];
  prompts: PromptInfo[];
  resources: ResourceInfo[];
  templates: TemplateInfo[];
  logs: LogLine[];
  quarantined: PinChange[];
  /** The diff text of each quarantined definition, by `server/name`. */
  pinDiffs: Record<string, string>;
  /** What callTool answers; an Error rejects. */
  toolResult: { readonly text: string; readonly isError: boolean } | Error;
  promptResult: string | Error;
  resourceText: string | Error;
}

export const server = (id: string, overrides: Partial<BackendStatus> = {}): BackendStatus => ({
  id,
  state: 'ready',
  transport: 'stdio',
  era: 'legacy',
  protocolVersion: '2025-06-18',
  listChanges: 'notifications',
  pid: 4242,
  uptimeSeconds: 75,
  restarts: 0,
  counts: { tools: 2, prompts: 1, resources: 1, resourceTemplates: 0 },
  inFlight: 0,
  ...overrides,
});

export const tool = (
  name: string,
  serverId: string,
  description?: string,
  inputSchema: unknown = { type: 'object', properties: {} },
): ToolInfo => ({ name, server: serverId, description, inputSchema });

/** The gateway's own search (MiniSearch over cards), over the test data. */
const searchCards = <T extends { readonly name: string; readonly server: string; readonly description?: string | undefined }>(
  items: readonly T[],
  query: string,
  serverId: string | undefined,
): Hit<ToolCard>[] => {
  const index = createCardIndex();
  index.replace(
    items.map((item) => ({
      name: item.name,
      server: item.server,
      ...(item.description === undefined ? {} : { description: item.description }),
      arguments: [],
    })),
  );
  return index.search(query, { limit: 50, ...(serverId === undefined ? {} : { server: serverId }) });
};

const createTestModel = (initial: Partial<TestData> = {}): TestModel => {
  const data: TestData = {
    servers: [],
    tools: [],
    prompts: [],
    resources: [],
    templates: [],
    logs: [],
    quarantined: [],
    pinDiffs: {},
    toolResult: { text: 'ok', isError: false },
    promptResult: 'user: hello',
    resourceText: 'resource text',
    ...initial,
  };
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  const answer = async <T>(value: T | Error): Promise<T> => {
    if (value instanceof Error) throw value;
    return value;
  };
  const calls: TestModel['calls'] = { callTool: [], renderPrompt: [], readResource: [], restart: [], setEnabled: [] };
  let seq = data.logs.length;
  return {
    calls,
    servers: () => data.servers,
    tools: () => data.tools,
    prompts: () => data.prompts,
    resources: () => data.resources,
    templates: () => data.templates,
    searchTools: (query, serverId) => searchCards(data.tools, query, serverId),
    searchPrompts: (query, serverId): Hit<PromptCard>[] => searchCards(data.prompts, query, serverId),
    callTool: (name, args) => {
      calls.callTool.push({ name, args });
      return answer(data.toolResult);
    },
    renderPrompt: (name, args) => {
      calls.renderPrompt.push({ name, args });
      return answer(data.promptResult);
    },
    readResource: (uri) => {
      calls.readResource.push(uri);
      return answer(data.resourceText);
    },
    restart: async (serverId) => {
      calls.restart.push(serverId);
    },
    setEnabled: async (serverId, enabled) => {
      calls.setEnabled.push({ server: serverId, enabled });
    },
    logs: () => data.logs,
    quarantined: () => data.quarantined,
    pinDiff: ({ server: serverId, name }) => data.pinDiffs[`${serverId}/${name}`],
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update: (next) => {
      Object.assign(data, next);
      notify();
    },
    log: ({ time = new Date(2025, 0, 2, 3, 4, 5), ...line }) => {
      data.logs = [...data.logs, { ...line, time, seq: ++seq }];
      notify();
    },
    get listeners() {
      return listeners.size;
    },
  };
};

/** Three servers (ready, failed, disabled) with a few tools, prompts, resources and log lines. */
export const sampleModel = (overrides: Partial<TestData> = {}): TestModel =>
  createTestModel({
    servers: [
      server('alpha', { counts: { tools: 2, prompts: 1, resources: 1, resourceTemplates: 1 } }),
      server('beta', {
        state: 'failed',
        era: undefined,
        protocolVersion: undefined,
        listChanges: undefined,
        pid: undefined,
        uptimeSeconds: undefined,
        restarts: 3,
        lastError: 'spawn ENOENT',
        nextRetrySeconds: 8,
        counts: { tools: 0, prompts: 0, resources: 0, resourceTemplates: 0 },
      }),
      server('gamma', {
        state: 'disabled',
        transport: 'streamable-http',
        era: undefined,
        listChanges: undefined,
        pid: undefined,
        uptimeSeconds: undefined,
        counts: { tools: 1, prompts: 1, resources: 0, resourceTemplates: 0 },
      }),
    ],
    tools: [
      tool('alpha_echo', 'alpha', 'Returns its text. Handy for checking the wiring.', {
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
      }),
      tool('alpha_add', 'alpha', 'Adds two numbers.'),
      tool('gamma_search', 'gamma', 'Searches the web for a query.'),
    ],
    prompts: [
      {
        name: 'alpha_greet',
        server: 'alpha',
        description: 'Greets someone.',
        arguments: [
          { name: 'name', description: 'Who to greet', required: true },
          { name: 'style', description: 'formal or casual' },
        ],
      },
      { name: 'gamma_summary', server: 'gamma', description: 'Summarises a page.', arguments: [] },
    ],
    resources: [{ uri: 'alpha+test://alpha/info', name: 'info', server: 'alpha', mimeType: 'text/plain' }],
    templates: [{ uriTemplate: 'alpha+test://alpha/items/{id}', name: 'item', server: 'alpha' }],
    logs: [
      {
        seq: 1,
        time: new Date(2025, 0, 2, 3, 4, 5),
        server: 'gateway',
        level: 'notice',
        source: 'notification',
        text: '1 of 3 servers ready',
      },
      { seq: 2, time: new Date(2025, 0, 2, 3, 4, 6), server: 'alpha', level: 'info', source: 'stderr', text: 'listening on stdio' },
      { seq: 3, time: new Date(2025, 0, 2, 3, 4, 7), server: 'beta', level: 'error', source: 'notification', text: 'cannot open database' },
      { seq: 4, time: new Date(2025, 0, 2, 3, 4, 8), server: 'alpha', level: 'debug', source: 'notification', text: 'tick' },
    ],
    ...overrides,
  });
