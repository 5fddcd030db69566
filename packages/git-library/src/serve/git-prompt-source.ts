/**
 * A prompt source over a git checkout: the folder source reads the files, this one names the commit
 * each prompt is served from (`_meta["dev.promptyard/git"]`) and makes a version move one catalog
 * change, answered wholly from one version: renders pass the source's gate, and a render that waited
 * for a move renders the prompt as the new version has it.
 */
import { PromptyardError } from '@promptyard/core';
import type { PromptEntry, PromptSource, PromptSourceDelta, RenderOptions, RenderedPrompt } from '@promptyard/core';
import type { GitMeta, GitSourceHandle, ServedVersion } from '../types.js';

/** The folder source below: it reads the checkout's files, and re-reads those a move changed. */
export type CheckoutPromptSource = PromptSource & Required<Pick<PromptSource, 'reload'>>;

export const gitMetaKey = 'dev.promptyard/git';

/**
 * The entry `name` of the version served now, for a render with `args`: refused when the version no
 * longer has it, or needs an argument the request (checked against the version it found) lacks.
 */
const servedNow = (
  current: ReadonlyMap<string, PromptEntry>,
  handle: GitSourceHandle,
  name: string,
  args: Readonly<Record<string, string>>,
): PromptEntry => {
  const entry = current.get(name);
  const missing = entry?.arguments.filter((argument) => argument.required && args[argument.name] === undefined) ?? [];
  if (entry !== undefined && missing.length === 0) return entry;
  const commit = handle.status().commit ?? '?';
  if (entry === undefined)
    throw new PromptyardError('PROMPT_NOT_FOUND', `Prompt "${name}" is no longer served: the library moved to commit ${commit}.`);
  const names = missing.map((argument) => argument.name).join(', ');
  throw new PromptyardError(
    'MISSING_ARGUMENTS',
    `Prompt "${name}" changed while the request waited (commit ${commit}): it now needs ${names}; ask again.`,
  );
};

/** The source over `inner`, a folder source reading `handle.dir`. */
export const servePromptsFromGit = (handle: GitSourceHandle, inner: CheckoutPromptSource): PromptSource => {
  /** The folder source's entries of the version served, by name. */
  const current = new Map<string, PromptEntry>();

  const renderCurrent = (name: string, args: Readonly<Record<string, string>>, options?: RenderOptions): Promise<RenderedPrompt> =>
    // Looked up once the gate is passed: a render that waited for a move renders the new version.
    handle.gate.shared(() => servedNow(current, handle, name, args).render(args, options));

  /** Each file's path in the repository, worked out once (a move re-announces every prompt). */
  const paths = new Map<string, string>();
  const pathOf = (file: string): string => {
    let path = paths.get(file);
    if (path === undefined) paths.set(file, (path = handle.metaOf(file).path));
    return path;
  };

  const served = (entry: PromptEntry, at: Omit<GitMeta, 'path'>): PromptEntry => ({
    name: entry.name,
    ...(entry.title === undefined ? {} : { title: entry.title }),
    description: entry.description,
    arguments: entry.arguments,
    meta: { ...entry.meta, [gitMetaKey]: { ...at, path: pathOf(entry.origin.file) } },
    origin: entry.origin,
    ...(entry.text === undefined ? {} : { text: entry.text }),
    render: (args, options) => renderCurrent(entry.name, args, options),
  });

  /** The repository, ref and commit served now. */
  const version = (): Omit<GitMeta, 'path'> => {
    const { url, ref, commit } = handle.status();
    return { repository: url, ref, commit: commit ?? '' };
  };

  /** Every prompt of the version served: each names that commit, so all of them change with it. */
  const everything = (): PromptEntry[] => {
    const at = version();
    return [...current.values()].map((entry) => served(entry, at));
  };

  const loadAll = async (): Promise<void> => {
    current.clear();
    for (const entry of await inner.load()) current.set(entry.name, entry);
  };

  const adopt = (delta: PromptSourceDelta): void => {
    for (const name of delta.removed) {
      const file = current.get(name)?.origin.file;
      if (file !== undefined) paths.delete(file);
      current.delete(name);
    }
    for (const entry of delta.upserted) current.set(entry.name, entry);
  };

  /** A new version: the changed files re-read (everything on the first move), then every prompt anew. */
  const move = async (version: ServedVersion): Promise<PromptSourceDelta> => {
    const before = [...current.keys()];
    let failed: number | undefined;
    if (version.changed === undefined) await loadAll();
    else {
      const delta = await inner.reload(version.changed);
      adopt(delta);
      failed = delta.failed;
    }
    const removed = before.filter((name) => !current.has(name));
    return { upserted: everything(), removed, ...(failed === undefined ? {} : { failed }) };
  };

  return {
    id: `${handle.config.kind} ${handle.status().url}#${handle.config.ref}:${handle.config.path}`,
    load: async () => {
      await loadAll();
      return everything();
    },
    reload: async (paths) => {
      const delta = await inner.reload(paths);
      adopt(delta);
      const at = version();
      return { ...delta, upserted: delta.upserted.map((entry) => served(entry, at)) };
    },
    // Versions move through the handle (poll, sync, webhook, config), not a file watcher.
    watch: async (onChange) => handle.onVersion(async (version) => onChange(await move(version))),
    close: async () => inner.close?.(),
  };
};
