import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';

export interface CodeMapOptions {
  /** Files larger than this are listed with a note instead of their content. */
  readonly maxFileBytes: number;
  /** The whole document stops growing past this, with a note. */
  readonly maxBytes: number;
}

const alwaysSkipped = new Set(['.git', 'node_modules', '.hg', '.svn']);

/** A NUL byte in the first 8 KB is what git takes for binary too. */
const isBinary = async (file: string): Promise<boolean> => {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
};

interface Walked {
  readonly tree: string[];
  readonly files: string[];
}

interface Rules {
  readonly base: string;
  readonly rules: Ignore;
}

/** Depth-first, directories first then files, both sorted; `.gitignore` files apply to their subtree. */
const walk = async (dir: string, rules: readonly Rules[], prefix: string, out: Walked): Promise<void> => {
  const gitignore = await readFile(join(dir, '.gitignore'), 'utf8').catch(() => undefined);
  const scoped = gitignore === undefined ? rules : [...rules, { base: dir, rules: ignore().add(gitignore) }];
  const entries = (await readdir(dir, { withFileTypes: true })).filter((entry) => {
    if (alwaysSkipped.has(entry.name)) return false;
    // Each .gitignore matches paths relative to its own folder, as git does.
    const suffix = entry.isDirectory() ? '/' : '';
    return !scoped.some(({ base, rules: rule }) => rule.ignores(relative(base, join(dir, entry.name)).split(sep).join('/') + suffix));
  });
  entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
  for (const [index, entry] of entries.entries()) {
    const last = index === entries.length - 1;
    out.tree.push(`${prefix}${last ? '└── ' : '├── '}${entry.name}`);
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path, scoped, `${prefix}${last ? '    ' : '│   '}`, out);
    else if (entry.isFile()) out.files.push(path);
  }
};

/**
 * The project as one Markdown document in CodeWeaver's shape (`# Tree View:` then `# Content:` with
 * a fenced block per file), for users without the CLI.
 */
export const renderCodeMap = async (folder: string, options: CodeMapOptions): Promise<string> => {
  const out: Walked = { tree: [basename(folder)], files: [] };
  await walk(folder, [], '', out);
  const parts = ['# Tree View:', '```', ...out.tree, '```', '', '# Content:', ''];
  let size = Buffer.byteLength(parts.join('\n'));
  for (const file of out.files) {
    const path = relative(folder, file).split(sep).join('/');
    const { size: bytes } = await stat(file);
    let section: string;
    if (bytes > options.maxFileBytes)
      section = `${path}\n[content skipped: ${bytes} bytes is over the ${options.maxFileBytes}-byte limit]\n`;
    else if (await isBinary(file)) section = `${path}\n[binary file skipped]\n`;
    else section = `${path}\n\`\`\`${extname(file).slice(1)}\n${(await readFile(file, 'utf8')).replace(/\n?$/, '\n')}\`\`\`\n`;
    size += Buffer.byteLength(section) + 1;
    if (size > options.maxBytes) {
      parts.push(`[output cut at ${options.maxBytes} bytes: the remaining files are in the tree above]`);
      break;
    }
    parts.push(section);
  }
  return parts.join('\n');
};
