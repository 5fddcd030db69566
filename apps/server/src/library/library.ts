/**
 * The prompt library: the prompt sources the config names (folders, twig.toml libraries), else the
 * well-known folders discovery finds (discovery.ts), plus the prompt sources of provider packages,
 * in one catalog with the prompt service. Serving and the one-shot commands (list, render,
 * validate) both open it.
 */
import { stat } from 'node:fs/promises';
import { createCatalog, createPromptService, PromptyardError } from '@promptyard/core';
import type {
  Catalog,
  CatalogOwner,
  Cluster,
  DiagnosticSink,
  Logger,
  PromptEntry,
  PromptService,
  PromptSource,
  TemplateEngine,
} from '@promptyard/core';
import { openGitLibrary, servePromptsFromGit } from '@promptyard/git-library';
import type { GitLibrary, GitSourceHandle } from '@promptyard/git-library';
import { createNativePromptSource, createPromptFolderSource } from '@promptyard/prompts';
import type { NativePromptSource } from '@promptyard/prompts';
import {
  createArgumentsEngine,
  createJinjaEngine,
  createLiquidEngine,
  createMustacheEngine,
  createPlainEngine,
} from '@promptyard/templates';
import type { ResolvedConfig } from '../config.js';
import { discoverFolders, discoverSkillFolders, type DiscoveredFolder } from './discovery.js';

interface LibrarySource {
  readonly source: PromptSource;
  readonly owner: CatalogOwner<PromptEntry>;
  /** A git library's checkout: it moves with its versions, whatever `[prompts] watch` says. */
  readonly fromGit?: boolean;
}

/** The prompt sources the config names (or discovery finds), their catalog and the prompt service. */
export interface Library {
  readonly catalog: Catalog<PromptEntry>;
  readonly prompts: PromptService;
  readonly sources: readonly LibrarySource[];
  /** Configured folders and libraries. */
  readonly folders: readonly string[];
  readonly discovered: readonly DiscoveredFolder[];
  /**
   * Why there is nothing to serve, saying where the server looked: the one answer `list`,
   * `validate`, `render` and serving give for an empty library.
   */
  emptyLibrary(): PromptyardError;
  /** Folders of Agent Skills: `[skills] folders` (else the well-known ones when discovery runs), then those from git. */
  readonly skillFolders: readonly string[];
  /** `[[prompts.git]]` and `[[skills.git]]`, each checked out at the version served. */
  readonly git: GitLibrary | undefined;
  /** Releases what the library holds (its git checkouts). */
  close(): Promise<void>;
}

const requireFolder = async (folder: string, kind: string): Promise<void> => {
  const info = await stat(folder).catch(() => undefined);
  if (info === undefined)
    throw new PromptyardError('CONFIG_INVALID', `The ${kind} ${folder} does not exist: create it or fix the path in your config or flags.`);
  if (!info.isDirectory()) throw new PromptyardError('CONFIG_INVALID', `The ${kind} ${folder} is not a folder.`);
};

/** The stderr note on what discovery found and how its prompts are named. */
export const describeDiscovery = (found: readonly DiscoveredFolder[], loaded: readonly (readonly PromptEntry[])[]): string => {
  const lines = found.flatMap((folder, index) => {
    const count = loaded[index]?.length ?? 0;
    // The project itself is Prompty's folder: it is worth a line only when it holds some.
    if (folder.format === 'prompty' && count === 0) return [];
    const example = loaded[index]?.[0]?.name;
    return [
      `  ${folder.scope.padEnd(7)} ${folder.format.padEnd(15)} ${folder.dir}  ${count} prompt${count === 1 ? '' : 's'} named ${folder.prefix}<name>${example === undefined ? '' : ` (e.g. ${example})`}`,
    ];
  });
  return `promptyard-server: no prompt folders configured; serving the well-known folders found (project before home on a name clash):\n${lines.join('\n')}\n`;
};

export type Engines = Readonly<Record<'liquid' | 'jinja' | 'mustache' | 'arguments' | 'plain', TemplateEngine>>;

/** Liquid's and Jinja's bounds: `[timeouts] prompt_ms` per render, and a parse limit from the file size limit. */
const liquidLimits = (config: ResolvedConfig['config']) => ({
  renderLimitMs: config.timeouts.prompt_ms,
  parseLimit: config.limits.max_file_bytes * 4,
});

/** The template engines every source renders with (provider prompt sources too). */
export const createEngines = (config: ResolvedConfig['config']): Engines => ({
  liquid: createLiquidEngine(liquidLimits(config)),
  // Markdown prompts render with Liquid; Prompty files (and `engine: jinja`) with Jinja.
  jinja: createJinjaEngine(liquidLimits(config)),
  // Prompty files with `template: mustache`.
  mustache: createMustacheEngine(liquidLimits(config)),
  arguments: createArgumentsEngine(),
  plain: createPlainEngine(),
});

/** Where the server looked, for the one answer an empty library gets. */
interface Looked {
  readonly resolved: ResolvedConfig;
  readonly folders: readonly string[];
  readonly discovered: readonly DiscoveredFolder[];
  readonly fromProviders: readonly { readonly name: string }[];
}

/** Why there is nothing to serve, saying where the server looked and what to do. */
const emptyLibraryError = ({ resolved, folders, discovered, fromProviders }: Looked): PromptyardError => {
  const { discovery } = resolved.config;
  // Prompty's folder is the project itself, always there: worth naming only beside others.
  const toolFolders = discovered.filter((found) => found.format !== 'prompty');
  const places = [
    ...folders,
    ...(toolFolders.length === 0 ? [] : discovered).map((found) => `${found.dir} (${found.format})`),
    ...fromProviders.map(({ name }) => `the provider ${name}`),
  ];
  if (places.length > 0) {
    const hint =
      folders.length > 0 ? 'add a prompt file there (review.md is served as "review")' : "add a prompt file there in its tool's format";
    return new PromptyardError(
      'CONFIG_INVALID',
      `No prompts found: looked in ${places.join(', ')}; ${hint}, or pass --prompts <dir> to serve another folder.`,
    );
  }
  const bases = [discovery.project ? resolved.cwd : undefined, discovery.home ? resolved.home : undefined].filter(
    (base) => base !== undefined,
  );
  const looked =
    discovery.enabled && bases.length > 0
      ? `none is configured and no well-known folder (.claude/commands, .github/prompts, .gemini/commands, …) exists in ${bases.join(' or ')}`
      : 'none is configured and discovery is off';
  return new PromptyardError(
    'CONFIG_INVALID',
    `No prompt folders to serve: ${looked}; pass --prompts <dir>, set PROMPTYARD_PROMPTS, or list folders under [prompts] in promptyard.toml.`,
  );
};

/** With no folder configured (and discovery on): the well-known prompt folders, and the skill folders unless `[skills] folders` names some. */
const discover = async (
  resolved: ResolvedConfig,
  folders: readonly string[],
): Promise<{ readonly discovered: DiscoveredFolder[]; readonly skillFolders: readonly string[] }> => {
  const { config } = resolved;
  const { discovery } = config;
  // Git libraries are configured prompts too: with one, nothing is discovered.
  const discovering = folders.length === 0 && resolved.git.sources.length === 0 && discovery.enabled;
  const discovered: DiscoveredFolder[] = discovering
    ? await discoverFolders({
        cwd: resolved.cwd,
        home: resolved.home,
        codexHome: resolved.codexHome,
        project: discovery.project,
        includeHome: discovery.home,
        formats: discovery.formats,
        prefixes: config['discovery.prefixes'],
      })
    : [];
  const skillFolders =
    resolved.skillFolders.length > 0 || !discovering
      ? resolved.skillFolders
      : await discoverSkillFolders({ cwd: resolved.cwd, home: resolved.home, project: discovery.project, includeHome: discovery.home });
  return { discovered, skillFolders };
};

interface SourceParts {
  readonly config: ResolvedConfig['config'];
  readonly engines: Engines;
  readonly catalog: Catalog<PromptEntry>;
  readonly logger: Logger;
  readonly diagnostics: DiagnosticSink | undefined;
}

/** A folder in a tool's own format, with the limits every source shares. */
const nativeSource = (
  parts: SourceParts,
  folder: Pick<DiscoveredFolder, 'format' | 'dir' | 'root' | 'prefix'>,
  ownerId: string,
): LibrarySource => {
  return { source: nativeFolder(parts, folder), owner: parts.catalog.owner(ownerId) };
};

const nativeFolder = (
  { config, engines, logger, diagnostics }: SourceParts,
  folder: Pick<DiscoveredFolder, 'format' | 'dir' | 'root' | 'prefix'>,
): NativePromptSource =>
  createNativePromptSource({
    format: folder.format,
    dir: folder.dir,
    root: folder.root,
    prefix: folder.prefix,
    jinja: engines.jinja,
    mustache: engines.mustache,
    maxFileBytes: config.limits.max_file_bytes,
    debounceMs: config.prompts.debounce_ms,
    logger,
    ...(diagnostics === undefined ? {} : { diagnostics }),
    followExternalSymlinks: config.prompts.follow_external_symlinks,
  });

/** A configured prompt folder or library (Markdown, twig.toml). */
const folderSource = (parts: SourceParts, dir: string): LibrarySource => ({
  source: markdownFolder(parts, dir),
  owner: parts.catalog.owner(dir),
});

const markdownFolder = ({ config, engines, logger, diagnostics }: SourceParts, dir: string) =>
  createPromptFolderSource({
    dir,
    engines,
    createLibraryEngine: (root) => createLiquidEngine({ ...liquidLimits(config), root }),
    maxFileBytes: config.limits.max_file_bytes,
    debounceMs: config.prompts.debounce_ms,
    logger,
    ...(diagnostics === undefined ? {} : { diagnostics }),
    followExternalSymlinks: config.prompts.follow_external_symlinks,
  });

/** A git library's checkout: Markdown prompts, or skills (also served as prompts), named by their commit. */
const gitSource = (parts: SourceParts, handle: GitSourceHandle): LibrarySource => {
  const { config, catalog } = parts;
  const inner =
    handle.config.kind === 'prompts'
      ? markdownFolder(parts, handle.dir)
      : nativeFolder(parts, { format: 'claude-skills', dir: handle.dir, root: handle.dir, prefix: config.skills.prefix });
  return { source: servePromptsFromGit(handle, inner), owner: catalog.owner(`git ${handle.id}`), fromGit: true };
};

/** `[[prompts.git]]` and `[[skills.git]]` checked out (the lock's, the remote's or the cache's commits); undefined without any. */
const openGit = async (resolved: ResolvedConfig, logger: Logger, cluster: Cluster | undefined): Promise<GitLibrary | undefined> => {
  const { git } = resolved;
  if (git.sources.length === 0) return undefined;
  return openGitLibrary({
    sources: git.sources,
    cacheDir: git.cacheDir,
    logger: logger.child('git'),
    lockFile: git.lockFile,
    frozen: git.frozen,
    cluster,
  });
};

export interface LibraryOptions {
  readonly cluster?: Cluster | undefined;
  /** Receives the problems each folder finds in its files as it loads (`validate`). */
  readonly diagnostics?: DiagnosticSink | undefined;
}

/**
 * Builds (but does not load) the sources: configured folders and libraries, else the well-known
 * folders discovery finds, then the prompt sources of provider packages. Throws when there is
 * nothing to serve.
 */
export const createLibrary = async (
  resolved: ResolvedConfig,
  logger: Logger,
  engines: Engines,
  fromProviders: readonly { readonly name: string; readonly source: PromptSource }[] = [],
  { cluster, diagnostics }: LibraryOptions = {},
): Promise<Library> => {
  const { config } = resolved;
  const folders = [...resolved.folders, ...resolved.libraries];
  const { discovered, skillFolders: plainSkillFolders } = await discover(resolved, folders);
  const emptyLibrary = (): PromptyardError => emptyLibraryError({ resolved, folders, discovered, fromProviders });
  const nothing = [folders, discovered, fromProviders, plainSkillFolders, resolved.git.sources].every((list) => list.length === 0);
  if (nothing) throw emptyLibrary();
  await Promise.all([
    ...resolved.folders.map((folder) => requireFolder(folder, 'prompt folder')),
    ...resolved.libraries.map((folder) => requireFolder(folder, 'library folder')),
    ...resolved.skillFolders.map((folder) => requireFolder(folder, 'skill folder')),
  ]);
  const git = await openGit(resolved, logger, cluster);
  const gitHandles = git?.sources ?? [];
  const skillFolders = [
    ...plainSkillFolders,
    ...gitHandles.filter((handle) => handle.config.kind === 'skills').map((handle) => handle.dir),
  ];

  const catalog = createCatalog<PromptEntry>({ kind: 'prompt', defaultPageSize: config.prompts.page_size });
  catalog.onConflict(({ name, kept, shadowed }) =>
    logger.warn('duplicate prompt name: the first folder wins (configured folders in order; project before home)', {
      prompt: name,
      served: kept,
      ignored: shadowed,
    }),
  );
  const parts: SourceParts = { config, engines, catalog, logger: logger.child('prompts'), diagnostics };
  const sources: LibrarySource[] = [
    ...folders.map((dir) => folderSource(parts, dir)),
    ...discovered.map((found) => nativeSource(parts, found, `${found.scope} ${found.format} ${found.dir}`)),
    ...gitHandles.map((handle) => gitSource(parts, handle)),
    // Skill folders not already read as Claude skills are prompts too, for clients without the extension.
    ...plainSkillFolders
      .filter((dir) => !discovered.some((found) => found.format === 'claude-skills' && found.dir === dir))
      .map((dir) => nativeSource(parts, { format: 'claude-skills', dir, root: dir, prefix: config.skills.prefix }, `skills ${dir}`)),
    ...fromProviders.map(({ name, source }) => ({ source, owner: catalog.owner(`provider ${name} ${source.id}`) })),
  ];
  const prompts = createPromptService({
    catalog,
    logger: logger.child('get'),
    limits: { maxArgumentChars: config.limits.max_argument_chars, maxResponseBytes: config.limits.max_response_bytes },
    timeoutMs: config.timeouts.prompt_ms,
  });
  return { catalog, prompts, sources, folders, discovered, skillFolders, emptyLibrary, git, close: async () => git?.close() };
};
