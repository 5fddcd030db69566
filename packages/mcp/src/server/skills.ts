import type { McpServer, Server, ServerContext } from '@modelcontextprotocol/server';
import type { SkillSource, SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { describeError, type Identity, type Logger } from '@promptyard/core';
import type { AccessGuard } from './access.js';
import { toProtocolError } from '../errors.js';
import type { JsonObject, McpSkills } from '../handlers.js';
import { loadServerSdk } from '../sdk.js';

/** The skills extension as the server adapter uses it: attached to each server it builds. */
export interface ServedSkills {
  /** Registers `skills/list`, `skills/get`, `resources/directory/read` and the capability on `server`; under a policy, each answers its caller's skills only. */
  attach(server: Server, access?: SkillsAccess): void;
  /** Whether `uri` is a skill file (`skill://…`), answered by `read`. */
  owns(uri: string): boolean;
  read(uri: string, ctx: ServerContext): Promise<JsonObject>;
  /** Each skill's `SKILL.md`, for `resources/list`. */
  resources(): Promise<JsonObject[]>;
  /** Fires when the skills changed: the adapter sends `notifications/resources/list_changed`. */
  onChanged(listener: () => void): () => void;
}

type ReadCallback = (uri: URL, variables: unknown, ctx: ServerContext) => Promise<JsonObject>;

interface SkillsAccess {
  readonly guard: AccessGuard;
  readonly callerOf: (ctx: ServerContext) => Identity | undefined;
}

type SkillsHandler = (params: JsonObject, ctx: ServerContext) => Promise<JsonObject>;

/**
 * The extension's methods as a caller under `[[policy]]` may use them: `skills/list` and a directory's
 * children filtered, `skills/get` and a directory read of a skill the caller may not use refused.
 */
const governedHandler = (
  method: string,
  handler: SkillsHandler,
  access: SkillsAccess,
  refused: (error: unknown) => never,
): SkillsHandler => {
  const { guard, callerOf } = access;
  return async (params, ctx) => {
    const caller = callerOf(ctx);
    if (caller === undefined) return handler(params, ctx);
    const uri = typeof params['uri'] === 'string' ? params['uri'] : '';
    // The root (`skill://`) names no skill: its children are filtered instead.
    if (method !== 'skills/list' && uri.replace(/^skill:\/+/, '') !== '') {
      try {
        guard.check('skill', uri, caller);
      } catch (error) {
        return refused(error);
      }
    }
    const result = await handler(params, ctx);
    const key = method === 'skills/list' ? 'skills' : 'resources';
    const entries = result[key];
    return Array.isArray(entries) ? { ...result, [key]: guard.filterItems('skills', entries as JsonObject[], caller) } : result;
  };
};

const baseUri = 'skill://';

type MetaOf = (skill: string) => Readonly<Record<string, unknown>> | undefined;

/** A skill entry with its `_meta` keys added: its name is the first segment of its `skill://` URI. */
const withMeta = (entry: unknown, metaOf: MetaOf): unknown => {
  if (typeof entry !== 'object' || entry === null || typeof (entry as JsonObject)['uri'] !== 'string') return entry;
  const { uri, _meta } = entry as JsonObject;
  const meta = metaOf((uri as string).slice(baseUri.length).split('/')[0] ?? '');
  return meta === undefined ? entry : { ...(entry as JsonObject), _meta: { ...(_meta as JsonObject | undefined), ...meta } };
};

/** `skills/list` and `skills/get` answering each skill with the `_meta` keys `metaOf` gives it. */
const describedHandler =
  (method: string, handler: SkillsHandler, metaOf: MetaOf): SkillsHandler =>
  async (params, ctx) => {
    const result = await handler(params, ctx);
    if (method === 'skills/list' && Array.isArray(result['skills']))
      return { ...result, skills: (result['skills'] as unknown[]).map((entry) => withMeta(entry, metaOf)) };
    if (method === 'skills/get' && result['skill'] !== undefined) return { ...result, skill: withMeta(result['skill'], metaOf) };
    return result;
  };

/**
 * The SDK's `SkillsExtension` attaches to an `McpServer`; the adapter serves on the low-level
 * `Server`, so attaching goes through this stand-in: the extension registers its methods on the
 * real server, and hands its resource reader to the adapter, which routes `skill://` reads to it.
 * It reports itself unconnected, so the extension never notifies on its own: the adapter does,
 * on every transport (see `onChanged`).
 */
const attachTo = (
  extension: SkillsExtension,
  server: Server,
  keep: (read: ReadCallback) => void,
  govern?: (method: string, handler: SkillsHandler) => SkillsHandler,
): void => {
  const setRequestHandler = (method: string, schemas: unknown, handler: SkillsHandler): void =>
    (server.setRequestHandler as unknown as (method: string, schemas: unknown, handler: SkillsHandler) => void).call(
      server,
      method,
      schemas,
      govern === undefined ? handler : govern(method, handler),
    );
  // The server's own methods keep the server as `this` (its private fields are not the proxy's).
  const member = (key: string | symbol): unknown => {
    const value: unknown = Reflect.get(server, key, server);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(server) : value;
  };
  const governed =
    govern === undefined
      ? server
      : new Proxy(server, { get: (_target, key) => (key === 'setRequestHandler' ? setRequestHandler : member(key)) });
  const standIn = {
    server: governed,
    isConnected: () => false,
    registerResource: (_name: string, _template: unknown, _metadata: unknown, read: ReadCallback) => keep(read),
  };
  extension.attach(standIn as unknown as McpServer);
};

const warningsTo =
  (logger: Logger) =>
  (warning: { readonly path: string; readonly message: string }): void =>
    logger.warn(warning.message, { path: warning.path });

/** A skill source given as the handlers' plain interface, in the SDK's shape. */
const sourceOf = (skills: Extract<McpSkills, { readonly source: unknown }>['source']): SkillSource => ({
  list: async ({ cursor }) => (await skills.list(cursor)) as never,
  get: async (uri) => (await skills.get(uri)) as never,
  read: (uri) => skills.read(uri),
  readDirectory: async (uri, { cursor }) => (await skills.readDirectory(uri, cursor)) as never,
});

/** How each method's handler is wrapped: skills described with `metaOf`, then governed by `access`; undefined for neither. */
const wrapperOf = (
  metaOf: MetaOf | undefined,
  access: SkillsAccess | undefined,
  refused: (method: string, error: unknown) => never,
): ((method: string, handler: SkillsHandler) => SkillsHandler) | undefined => {
  if (access === undefined && metaOf === undefined) return undefined;
  return (method, handler) => {
    const described = metaOf === undefined ? handler : describedHandler(method, handler, metaOf);
    return access === undefined ? described : governedHandler(method, described, access, (error) => refused(method, error));
  };
};

/**
 * Serves `skills` through the SDK's skills extension: a tree of skill folders becomes a catalog the
 * SDK builds (digests, sizes, frontmatter checks) and rebuilds when the tree changes; a source (the
 * gateway's) is served as it answers.
 */
export const serveSkills = async (skills: McpSkills, logger: Logger): Promise<ServedSkills> => {
  const [sdk, ext] = await Promise.all([loadServerSdk(), import('@modelcontextprotocol/server/ext/skills')]);
  const onWarning = warningsTo(logger.child('skills'));
  const listeners = new Set<() => void>();
  const changed = (): void => {
    for (const listener of listeners) listener();
  };
  let reader: ReadCallback | undefined;
  let extension: SkillsExtension;
  let resources: () => Promise<JsonObject[]>;

  if ('tree' in skills) {
    const { tree } = skills;
    // A tree that cannot be read at start-up (a folder or file the server may not read) is served
    // empty, with a warning, rather than stopping the server; the next change tries again.
    let unreadable = false;
    const files = { list: async (dir: string) => (unreadable ? [] : tree.list(dir)), read: (path: string) => tree.read(path) };
    const catalog = await ext.SkillsExtension.load(files, { onWarning }).catch(async (error: unknown) => {
      logger.warn('skills not served: the skill folders could not be read; fix the cause and save a skill to retry', {
        folders: tree.id,
        reason: describeError(error),
      });
      unreadable = true;
      const empty = await ext.SkillsExtension.load(files, { onWarning: () => {} });
      unreadable = false;
      return empty;
    });
    extension = catalog;
    resources = async () =>
      catalog.entries.map((skill) => ({
        uri: skill.uri,
        name: skill.frontmatter.name,
        description: skill.frontmatter.description,
        mimeType: 'text/markdown',
      }));
    skills.onChanged(() => {
      catalog.reload().then(
        (changes) => {
          const count = changes.added.length + changes.removed.length + changes.changed.length;
          if (count === 0) return;
          logger.info('skills reloaded', { added: changes.added.length, removed: changes.removed.length, changed: changes.changed.length });
          changed();
        },
        (error: unknown) => logger.warn('skills not reloaded: the skills served before stay', { reason: describeError(error) }),
      );
    });
  } else {
    extension = new ext.SkillsExtension({ source: sourceOf(skills.source), onWarning });
    resources = () => skills.source.listResources();
    skills.onChanged(changed);
  }

  const metaOf = 'tree' in skills ? skills.metaOf : undefined;
  return {
    attach: (server, access) =>
      attachTo(
        extension,
        server,
        (read) => {
          reader = read;
        },
        wrapperOf(metaOf, access, (method, error) => {
          throw toProtocolError(sdk, error, logger, method);
        }),
      ),
    owns: (uri) => uri.startsWith(baseUri),
    read: async (uri, ctx) => {
      if (reader === undefined) throw new Error('skills are not attached to this server');
      if (!URL.canParse(uri)) throw new sdk.ResourceNotFoundError(uri);
      return reader(new URL(uri), {}, ctx);
    },
    resources,
    onChanged: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
