/**
 * Resources: every resource provider of a server behind one service, lists merged and reads routed
 * by URI scheme, independent of any transport or SDK.
 */
import { createDeadlines } from '../deadlines/deadlines.js';
import { PromptyardError } from '../errors/errors.js';
import type { ResourceContents, ResourceInfo, ResourceProvider, ResourceTemplateInfo } from '../contracts/resources.js';

export interface ResourceCompletion {
  readonly values: readonly string[];
  readonly total: number;
  readonly hasMore: boolean;
}

/** Every resource provider of a server behind one face: merged lists, reads routed by URI scheme. */
export interface ResourceService {
  readonly providers: readonly ResourceProvider[];
  list(): ResourceInfo[];
  templates(): ResourceTemplateInfo[];
  /** Throws `RESOURCE_NOT_FOUND` for a URI no provider serves, naming the schemes that are served. */
  read(uri: string, signal?: AbortSignal): Promise<readonly ResourceContents[]>;
  /** Values for a template variable, from the provider of the template's scheme (none when it cannot complete). */
  complete(uriTemplate: string, variable: string, value: string): Promise<ResourceCompletion>;
  close(): Promise<void>;
}

const maxCompletionValues = 100;

export interface ResourceServiceOptions {
  /** Longest a read may take before it fails with `TIMEOUT` and its provider's signal aborts ([timeouts] resource_ms); none by default. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Routes by scheme: `url:` has no authority, so a provider matches a URI starting with its scheme and
 * a colon (`doc://`, `prompt://` match the same way). Two providers of one scheme would leave the
 * second unreachable: that is a configuration error, reported with what to do.
 */
export const createResourceService = (providers: readonly ResourceProvider[], options: ResourceServiceOptions = {}): ResourceService => {
  const { timeoutMs } = options;
  const withDeadline = timeoutMs === undefined ? undefined : createDeadlines(timeoutMs);
  const seen = new Set<string>();
  for (const provider of providers) {
    if (seen.has(provider.scheme)) {
      throw new PromptyardError(
        'CONFIG_INVALID',
        `Two resource providers serve the ${provider.scheme}: scheme: remove one of the [[providers]] entries, or disable the built-in one in [resources.*].`,
      );
    }
    seen.add(provider.scheme);
  }
  const providerOf = (uri: string): ResourceProvider | undefined => providers.find((provider) => uri.startsWith(`${provider.scheme}:`));
  return {
    providers,
    list: () => providers.flatMap((provider) => provider.list()),
    templates: () => providers.flatMap((provider) => provider.templates()),
    read: async (uri, signal) => {
      const provider = providerOf(uri);
      if (provider === undefined) {
        const schemes = providers.map((candidate) => `${candidate.scheme}://`).join(', ');
        throw new PromptyardError(
          'RESOURCE_NOT_FOUND',
          `Unknown resource "${uri}": this server serves ${schemes} URIs; see resources/list.`,
          { data: { uri } },
        );
      }
      if (withDeadline === undefined) return provider.read(uri, signal);
      return withDeadline(
        () =>
          new PromptyardError(
            'TIMEOUT',
            `Reading "${uri}" took longer than ${timeoutMs} ms ([timeouts] resource_ms): try again, or raise the limit.`,
            { data: { uri } },
          ),
        // The provider gets a signal that aborts at the deadline (or with the caller's), so a slow
        // fetch stops instead of running on unobserved.
        (deadline) => provider.read(uri, deadline.signal),
        timeoutMs,
        signal,
      );
    },
    complete: async (uriTemplate, variable, value) => {
      const values = (await providerOf(uriTemplate)?.complete?.(uriTemplate, variable, value)) ?? [];
      return { values: values.slice(0, maxCompletionValues), total: values.length, hasMore: values.length > maxCompletionValues };
    },
    close: async () => {
      await Promise.allSettled(providers.map((provider) => provider.close?.()));
    },
  };
};
