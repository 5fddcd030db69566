import type { Logger, LogRecord } from '@promptyard/core';
import type { BackendStatus, Hit, PinBook, PinChange, PromptCard, Router, RouterLogRecord, RouterView, ToolCard } from '@promptyard/router';
import { pinDiff } from '../pin-diff.js';

/** One line of the Logs panel: a backend's stderr or a logging notification it sent. */
export interface LogLine {
  readonly seq: number;
  readonly time: Date;
  readonly server: string;
  /** The level a stderr line states (`info` when none); notifications keep their MCP level. */
  readonly level: RouterLogRecord['level'];
  readonly source: 'stderr' | 'notification';
  readonly text: string;
}

export interface ToolInfo {
  readonly name: string;
  readonly server: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
}

export interface PromptInfo {
  readonly name: string;
  readonly server: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly arguments: readonly {
    readonly name: string;
    readonly description?: string | undefined;
    readonly required?: boolean | undefined;
  }[];
}

export interface ResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly server: string;
  readonly mimeType?: string | undefined;
  readonly description?: string | undefined;
}

export interface TemplateInfo {
  readonly uriTemplate: string;
  readonly name: string;
  readonly server: string;
  readonly description?: string | undefined;
}

/** What a panel can ask of the gateway; the terminal UI knows nothing else of the router. */
export interface UiModel {
  servers(): readonly BackendStatus[];
  tools(): readonly ToolInfo[];
  prompts(): readonly PromptInfo[];
  resources(): readonly ResourceInfo[];
  templates(): readonly TemplateInfo[];
  searchTools(query: string, server?: string): readonly Hit<ToolCard>[];
  searchPrompts(query: string, server?: string): readonly Hit<PromptCard>[];
  /** The result (any MCP tool result) as pretty text, `isError` included. */
  callTool(name: string, args: Record<string, unknown>): Promise<{ readonly text: string; readonly isError: boolean }>;
  renderPrompt(name: string, args: Record<string, string>): Promise<string>;
  readResource(uri: string): Promise<string>;
  restart(server: string): Promise<void>;
  setEnabled(server: string, enabled: boolean): Promise<void>;
  logs(): readonly LogLine[];
  /** The tools and prompts this surface holds back (`pinning = "enforce"`) until `pins approve`: what changed and how to approve it. */
  quarantined(): readonly PinChange[];
  /** The held-back definition against the approved one, as `pins diff` shows it; undefined when the pins hold no pending form of it. */
  pinDiff(change: PinChange): string | undefined;
  /** Called after anything above changed (lists, states, new log lines); returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

const maxLogLines = 1000;

const contentText = (content: readonly unknown[]): string =>
  content
    .map((item) => {
      const block = item as {
        type?: string;
        text?: string;
        mimeType?: string;
        data?: string;
        uri?: string;
        resource?: { uri?: string; text?: string };
      };
      switch (block.type) {
        case 'text':
          return block.text ?? '';
        case 'image':
        case 'audio':
          return `[${block.type} ${block.mimeType ?? ''}, ${Math.round(((block.data ?? '').length * 3) / 4)} bytes]`;
        case 'resource':
          return block.resource?.text ?? `[resource ${block.resource?.uri ?? ''}]`;
        case 'resource_link':
          return `[link ${block.uri ?? ''}]`;
        default:
          return JSON.stringify(item);
      }
    })
    .join('\n');

const recordText = (record: LogRecord): string => {
  const fields = Object.entries(record.fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}=${typeof value === 'string' ? JSON.stringify(value) : String(value)}`)
    .join('');
  return `${record.scope === 'gateway' ? '' : `[${record.scope}] `}${record.message}${fields}`;
};

export interface UiModelOptions {
  /** The gateway's own logger: its records join the log as server "gateway" (the UI owns the terminal, so they go nowhere else). */
  readonly logger?: Logger;
  /** The surface shown: a profile's name; absent: the default one (everything). */
  readonly profile?: string | undefined;
  /** The pins the router reviews its lists against: where a quarantined definition's diff comes from. */
  readonly pins?: PinBook | undefined;
}

/** Listeners told of changes, bursts (a restart re-lists three kinds, logs arrive in floods) coalesced into one redraw. */
const createChanges = (): { readonly listeners: Set<() => void>; changed(): void } => {
  const listeners = new Set<() => void>();
  let scheduled = false;
  return {
    listeners,
    changed: () => {
      if (scheduled) return;
      scheduled = true;
      setTimeout(() => {
        scheduled = false;
        for (const listener of listeners) listener();
      }, 30);
    },
  };
};

/** The bounded log: every server's stderr and log notifications, and the gateway's own records; returns the unsubscribes. */
const followLogs = (router: Router, logger: Logger | undefined, lines: LogLine[], changed: () => void): (() => void)[] => {
  let seq = 0;
  const push = (line: Omit<LogLine, 'seq' | 'time'>): void => {
    lines.push({ ...line, seq: ++seq, time: new Date() });
    if (lines.length > maxLogLines) lines.splice(0, lines.length - maxLogLines);
    changed();
  };
  const stops = [
    router.on('stderr', ({ server, line, level }) => push({ server, level, source: 'stderr', text: line })),
    router.on('log', (record) =>
      push({
        server: record.server,
        level: record.level,
        source: 'notification',
        text: `${record.logger === undefined ? '' : `[${record.logger}] `}${typeof record.data === 'string' ? record.data : JSON.stringify(record.data)}`,
      }),
    ),
  ];
  if (logger !== undefined) {
    stops.push(
      logger.subscribe((record) => {
        // A server's stderr is already its own line; the router's debug echo of it would double it.
        if (record.message === 'server stderr') return;
        push({ server: 'gateway', level: record.level, source: 'notification', text: recordText(record) });
      }),
    );
  }
  return stops;
};

const owner = (router: RouterView, name: string, kind: 'tool' | 'prompt'): string =>
  (kind === 'tool' ? router.toolOwner(name)?.server : router.promptOwner(name)?.server) ?? '';

/** The lists of the panels, each item with the server that serves it. */
const catalogOf = (router: RouterView): Pick<UiModel, 'tools' | 'prompts' | 'resources' | 'templates'> => ({
  tools: () =>
    router.allTools().map((tool) => ({
      name: tool.name,
      server: owner(router, tool.name, 'tool'),
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
    })),
  prompts: () =>
    router.listPrompts().map((prompt) => ({
      name: prompt.name,
      server: owner(router, prompt.name, 'prompt'),
      title: prompt.title,
      description: prompt.description,
      arguments: (prompt.arguments ?? []).map((argument) => ({
        name: argument.name,
        description: argument.description,
        required: argument.required,
      })),
    })),
  resources: () =>
    router.listResources().map((resource) => ({
      uri: resource.uri,
      name: resource.name,
      server: safeOwner(router, resource.uri),
      mimeType: resource.mimeType,
      description: resource.description,
    })),
  templates: () =>
    router.listResourceTemplates().map((template) => ({
      uriTemplate: template.uriTemplate,
      name: template.name,
      server: safeOwner(router, template.uriTemplate),
      description: template.description,
    })),
});

/** What a panel does to the gateway: search, call, render, read, restart and disable, results as text. */
const actionsOf = (
  gateway: Router,
  router: RouterView,
): Pick<UiModel, 'searchTools' | 'searchPrompts' | 'callTool' | 'renderPrompt' | 'readResource' | 'restart' | 'setEnabled'> => ({
  searchTools: (query, server) => router.search.tools(query, { limit: 50, ...(server === undefined ? {} : { server }) }),
  searchPrompts: (query, server) => router.search.prompts(query, { limit: 50, ...(server === undefined ? {} : { server }) }),
  callTool: async (name, args) => {
    const result = await router.callTool(name, args);
    const structured =
      result.structuredContent === undefined ? '' : `\nstructuredContent: ${JSON.stringify(result.structuredContent, null, 2)}`;
    return { text: `${contentText(result.content)}${structured}`, isError: result.isError === true };
  },
  renderPrompt: async (name, args) => {
    const result = await router.getPrompt(name, args);
    return result.messages.map((message) => `${message.role}: ${contentText([message.content])}`).join('\n\n');
  },
  readResource: async (uri) => {
    const result = await router.readResource(uri);
    return result.contents
      .map((item) => ('text' in item && typeof item.text === 'string' ? item.text : `[${item.mimeType ?? 'binary'} ${item.uri}]`))
      .join('\n');
  },
  restart: (server) => gateway.restartServer(server),
  setEnabled: (server, enabled) => gateway.setEnabled(server, enabled),
});

/** The UI model over a live router: its lists, states and events, with a bounded log. */
export const createUiModel = (gateway: Router, options: UiModelOptions = {}): UiModel & { close(): void } => {
  const router = gateway.view(options.profile);
  const { listeners, changed } = createChanges();
  const lines: LogLine[] = [];
  const stops: (() => void)[] = [
    router.onListChanged(changed),
    gateway.on('status', changed),
    ...followLogs(gateway, options.logger, lines, changed),
    ...(options.pins === undefined ? [] : [options.pins.onChange(changed)]),
  ];
  return {
    servers: () => router.status().backends,
    ...catalogOf(router),
    ...actionsOf(gateway, router),
    logs: () => lines,
    quarantined: () => router.status().quarantined,
    pinDiff: ({ server, kind, name }) => {
      const entry = options.pins?.entries().find((each) => each.server === server && each.kind === kind && each.name === name);
      return entry?.pending === undefined ? undefined : pinDiff({ ...entry, pending: entry.pending });
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => {
      for (const stop of stops) stop();
      listeners.clear();
    },
  };
};

const safeOwner = (router: RouterView, uri: string): string => {
  try {
    return router.resolveUri(uri.split('{')[0] ?? uri).backend.id;
  } catch {
    return '';
  }
};
