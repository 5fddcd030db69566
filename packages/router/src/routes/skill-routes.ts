import type { JsonObject, McpSkills, SkillContent } from '@promptyard/mcp';
import type { Backend } from '../backends/backend.js';
/** What the gateway's skills read of a surface. */
export interface SkillHost {
  skillServers(): { readonly backend: Backend; readonly timeoutMs: number }[];
  startup(): Promise<void> | undefined;
}
import type { Skill } from '../sdk/upstream-skills.js';

const base = 'skill://';

/** A server's skill URI at the gateway: `skill://<prefix>/<path>`; a server without a prefix keeps its own. */
const toGateway = (prefix: string | false, uri: string): string | undefined =>
  !uri.startsWith(base) ? undefined : prefix === false ? uri : `${base}${encodeURIComponent(prefix)}/${uri.slice(base.length)}`;

/** The server's URI for a gateway URI, when it lies under the server's prefix. */
const toServer = (prefix: string | false, uri: string): string | undefined => {
  if (prefix === false) return uri;
  const start = `${base}${encodeURIComponent(prefix)}/`;
  return uri.startsWith(start) ? `${base}${uri.slice(start.length)}` : undefined;
};

/** A skill's folder URI: its `SKILL.md` URI without the file name. */
const folderOf = (skillUri: string): string => skillUri.slice(0, skillUri.lastIndexOf('/') + 1);

interface SkillRoute {
  readonly backend: Backend;
  readonly timeoutMs: number;
  /** The entry as the gateway serves it. */
  readonly skill: Skill;
  /** The server's own URI of the skill's folder (`skill://review/`). */
  readonly folder: string;
}

/** A server's entry with every URI under the server's prefix; `undefined` when one is not a `skill://` URI. */
const rewrite = (prefix: string | false, skill: Skill): Skill | undefined => {
  const uri = toGateway(prefix, skill.uri);
  if (uri === undefined) return undefined;
  if (skill.resources === 'dynamic') return { ...skill, uri };
  const resources = skill.resources.map((resource) => ({ ...resource, uri: toGateway(prefix, resource.uri) }));
  return resources.every((resource) => resource.uri !== undefined)
    ? { ...skill, uri, resources: resources as Skill['resources'] }
    : undefined;
};

const routesOf = (router: SkillHost): SkillRoute[] => {
  const taken = new Set<string>();
  const routes: SkillRoute[] = [];
  for (const { backend, timeoutMs } of router.skillServers()) {
    for (const original of backend.lists.skills) {
      const skill = rewrite(backend.config.prefix, original);
      if (skill === undefined || taken.has(skill.uri)) continue;
      taken.add(skill.uri);
      routes.push({ backend, timeoutMs, skill, folder: folderOf(original.uri) });
    }
  }
  return routes;
};

const decodedOrUndefined = (uri: string): string | undefined => {
  try {
    return decodeURIComponent(uri);
  } catch {
    return undefined;
  }
};

/** The route of a gateway URI inside a served skill's folder, with the server's URI for it. */
const locate = (router: SkillHost, uri: string): { readonly route: SkillRoute; readonly original: string } | undefined => {
  // `..` or `.` segments (however encoded) would leave the folder the check below looks at.
  const decoded = decodedOrUndefined(uri);
  if (decoded === undefined || decoded.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  for (const route of routesOf(router)) {
    const original = toServer(route.backend.config.prefix, uri);
    if (original !== undefined && (original.startsWith(route.folder) || `${original}/` === route.folder)) return { route, original };
  }
  return undefined;
};

const contentOf = (contents: readonly Readonly<Record<string, unknown>>[]): SkillContent | undefined => {
  const first = contents[0];
  const mimeType = typeof first?.['mimeType'] === 'string' ? { mimeType: first['mimeType'] } : {};
  if (typeof first?.['text'] === 'string') return { text: first['text'], ...mimeType };
  if (typeof first?.['blob'] === 'string') return { bytes: new Uint8Array(Buffer.from(first['blob'], 'base64')), ...mimeType };
  return undefined;
};

/**
 * The gateway's skills: every ready server's skills under the server's prefix
 * (`skill://<prefix>/<skill>/SKILL.md`), their files and folders read through the server that
 * serves them. A server without the skills extension contributes none. Changes are announced with
 * the resources list (the route table's resources signature covers the skills).
 */
export const createGatewaySkills = (router: SkillHost): McpSkills => ({
  source: {
    // As the other lists: during start-up they wait (a bounded wait) for the servers still starting.
    list: async () => {
      await router.startup();
      return { skills: routesOf(router).map((route) => route.skill as unknown as JsonObject) };
    },
    get: async (uri) => {
      await router.startup();
      return routesOf(router).find((route) => route.skill.uri === uri)?.skill as unknown as JsonObject | undefined;
    },
    read: async (uri) => {
      await router.startup();
      const found = locate(router, uri);
      if (found === undefined) return undefined;
      const result = await found.route.backend.upstream.readResource(found.original, { timeoutMs: found.route.timeoutMs });
      return contentOf(result.contents as readonly Readonly<Record<string, unknown>>[]);
    },
    readDirectory: async (uri) => {
      await router.startup();
      const found = locate(router, uri);
      const children =
        found === undefined ? undefined : await found.route.backend.upstream.skills?.readDirectory(found.original, found.route.timeoutMs);
      if (found === undefined || children === undefined) return undefined;
      const prefix = found.route.backend.config.prefix;
      return {
        resources: children.flatMap((child) =>
          ((uri) => (uri === undefined ? [] : [{ ...child, uri } as JsonObject]))(toGateway(prefix, child.uri)),
        ),
      };
    },
    listResources: async () => {
      await router.startup();
      return routesOf(router).map(({ skill }) => ({
        uri: skill.uri,
        name: skill.frontmatter.name,
        description: skill.frontmatter.description,
        mimeType: 'text/markdown',
      }));
    },
  },
  // Announced as a resources list change by the router already.
  onChanged: () => {},
});
