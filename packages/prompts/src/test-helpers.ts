import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  PromptyardError,
  createLogger,
  type CompileOptions,
  type CompiledTemplate,
  type LogRecord,
  type Logger,
  type TemplateEngine,
} from '@promptyard/core';
import type { PromptDelta, PromptFolderSource } from './folder/types.js';

const variablePattern = /\{\{\s*([A-Za-z_]\w*)\s*\}\}/g;

/**
 * A stand-in for Liquid: replaces `{{ name }}`, reports those names as variables, and rejects
 * `{{ broken` the way a real engine rejects an unclosed tag.
 */
export const createFakeLiquid = (name = 'liquid', prefix = ''): TemplateEngine => {
  const compile = (source: string, options: CompileOptions = {}): CompiledTemplate => {
    if (source.includes('{{ broken')) {
      throw new PromptyardError('TEMPLATE_ERROR', `${options.file ?? 'template'}: unclosed {{ tag`, { data: { file: options.file } });
    }
    const variables = [...new Set([...source.matchAll(variablePattern)].map((match) => match[1] as string))];
    return {
      variables,
      render: async (args) => prefix + source.replace(variablePattern, (_, variable: string) => args[variable] ?? ''),
    };
  };
  return {
    name,
    compile,
    analyze: (source, options) => ({ variables: compile(source, options).variables }),
    render: (source, args, options) => compile(source, options).render(args),
  };
};

/** A stand-in for the `$ARGUMENTS` engine. */
const fakeArguments: TemplateEngine = (() => {
  const compile = (source: string): CompiledTemplate => ({
    variables: source.includes('$ARGUMENTS') ? ['arguments'] : [],
    render: async (args) => source.replaceAll('$ARGUMENTS', args.arguments ?? ''),
  });
  return {
    name: 'arguments',
    compile,
    analyze: (source) => ({ variables: compile(source).variables }),
    render: (source, args) => compile(source).render(args),
  };
})();

/** Renders the text verbatim. */
const plainEngine: TemplateEngine = {
  name: 'plain',
  compile: (source) => ({ variables: [], render: async () => source }),
  analyze: () => ({ variables: [] }),
  render: async (source) => source,
};

export const testEngines = { liquid: createFakeLiquid(), jinja: createFakeLiquid('jinja'), arguments: fakeArguments, plain: plainEngine };

export interface TempFolder {
  readonly dir: string;
  write(path: string, content: string | Uint8Array): Promise<string>;
  writeAll(files: Readonly<Record<string, string | Uint8Array>>): Promise<void>;
  remove(path: string): Promise<void>;
  cleanup(): Promise<void>;
}

export const createTempFolder = async (): Promise<TempFolder> => {
  const dir = await mkdtemp(join(tmpdir(), 'promptyard-prompts-'));
  const write = async (path: string, content: string | Uint8Array): Promise<string> => {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  };
  return {
    dir,
    write,
    writeAll: async (files) => {
      for (const [path, content] of Object.entries(files)) await write(path, content);
    },
    remove: (path) => rm(join(dir, path), { recursive: true, force: true }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
};

export interface CapturedLogs {
  readonly logger: Logger;
  readonly records: LogRecord[];
  warnings(): LogRecord[];
  /** Resolves with the first record (already logged or future) that matches. */
  waitFor(matches: (record: LogRecord) => boolean): Promise<LogRecord>;
}

export const captureLogs = (): CapturedLogs => {
  const logger = createLogger({ level: 'debug', write: () => {} });
  const records: LogRecord[] = [];
  const waiters: { matches: (record: LogRecord) => boolean; resolve: (record: LogRecord) => void }[] = [];
  logger.subscribe((record) => {
    records.push(record);
    for (const waiter of [...waiters]) {
      if (waiter.matches(record)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(record);
      }
    }
  });
  return {
    logger,
    records,
    warnings: () => records.filter((record) => record.level === 'warning'),
    waitFor: (matches) => {
      const found = records.find(matches);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ matches, resolve }));
    },
  };
};

export interface ChangeQueue {
  /** The next delta passed to onChange (queued, so none is missed). */
  next(): Promise<PromptDelta>;
  /** Deltas received and not yet taken. */
  readonly pending: PromptDelta[];
}

/** Starts watching and queues every delta, so a test awaits changes instead of sleeping. */
export const watchChanges = async (source: PromptFolderSource): Promise<ChangeQueue> => {
  const pending: PromptDelta[] = [];
  const waiting: ((delta: PromptDelta) => void)[] = [];
  await source.watch((delta) => {
    const waiter = waiting.shift();
    if (waiter === undefined) pending.push(delta);
    else waiter(delta);
  });
  return {
    pending,
    next: () => {
      const delta = pending.shift();
      if (delta !== undefined) return Promise.resolve(delta);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
};
