import { PromptyardError } from '@promptyard/core';
import type { AccessKind } from '@promptyard/core';
import type { Backend } from '../backends/backend.js';
import { decodeUri } from './names.js';
import type { RouteTable } from './route-table.js';

/** A resource URI as its server knows it, and the server. */
export interface ResourceTarget {
  readonly backend: Backend;
  readonly uri: string;
}

const hasScheme = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** The literal start of a URI template (before its first expression). */
const literalStart = (uriTemplate: string): string => uriTemplate.split('{')[0] ?? '';

/**
 * Whether this surface shows `uri` (as its server knows it), unlisted: it passes the server's and the
 * profile's resource filters, or lies under a template the surface lists. Skill files have routes of their own.
 */
const readable = (routes: RouteTable, backend: Backend, uri: string): boolean =>
  uri.startsWith('skill://') ||
  (routes.resourceFilters.get(backend)?.(uri) ?? true) ||
  routes.templates.some(
    (template) => template.backend === backend && literalStart(template.original) !== '' && uri.startsWith(literalStart(template.original)),
  );

/** Finds the backend of a namespaced (or passed-through) resource URI this surface shows. */
export const resolveUri = (routes: RouteTable, uri: string): ResourceTarget => {
  const listed = routes.resources.get(uri);
  if (listed !== undefined) return { backend: listed.backend, uri: listed.original };
  const decoded = decodeUri(uri, routes.uriPrefixes.keys());
  if (decoded !== undefined) {
    const backend = routes.uriPrefixes.get(decoded.prefix);
    if (backend !== undefined && readable(routes, backend, decoded.uri)) return { backend, uri: decoded.uri };
  }
  // Pass-through servers: match a template's literal start, else the only pass-through server with resources.
  const passthrough = routes.members.filter((backend) => backend.config.prefix === false && backend.capabilities.resources !== undefined);
  for (const template of routes.templates) {
    if (template.backend.config.prefix !== false) continue;
    const literal = literalStart(template.original);
    if (literal !== '' && uri.startsWith(literal)) return { backend: template.backend, uri };
  }
  const only = passthrough[0];
  if (passthrough.length === 1 && only !== undefined && hasScheme.test(uri) && readable(routes, only, uri)) return { backend: only, uri };
  throw new PromptyardError(
    'RESOURCE_NOT_FOUND',
    `Resource "${uri}" does not belong to any server: use a URI from resources/list or a resource template.`,
    { data: { uri } },
  );
};

/** The backend of a listed URI template (for completions), else of a URI; undefined when none owns it. */
export const resolveTemplate = (routes: RouteTable, uriTemplate: string): ResourceTarget | undefined => {
  const template = routes.templates.find((route) => route.item.uriTemplate === uriTemplate);
  if (template !== undefined) return { backend: template.backend, uri: template.original };
  try {
    return resolveUri(routes, uriTemplate);
  } catch {
    return undefined;
  }
};

/**
 * The server an item comes from, for `[[policy]] servers`: a tool or prompt by name, a resource by URI
 * or URI template, a skill by its `skill://<prefix>/` URI; `undefined` for the gateway's own tools.
 */
export const serverOfItem = (routes: RouteTable, kind: AccessKind, name: string): string | undefined => {
  if (kind === 'tool') return routes.tools.get(name)?.backend.id;
  if (kind === 'prompt') return routes.prompts.get(name)?.backend.id;
  if (kind === 'resource') return resolveTemplate(routes, name)?.backend.id;
  const prefix = /^skill:\/\/([^/]+)/.exec(name)?.[1];
  return prefix === undefined ? undefined : routes.uriPrefixes.get(decodeURIComponent(prefix))?.id;
};
