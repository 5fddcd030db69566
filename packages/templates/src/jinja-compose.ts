import { findTemplateFile, type FileStamp, type TemplateFolder } from './jinja-files.js';
import { findNodes, type BlockNode, type LoadNode } from './jinja-nodes.js';
import { JinjaUnsupportedError } from './jinja-source.js';
import type { JinjaNode } from './jinja-tree.js';

/**
 * A template and the files it loads, resolved into one tree before rendering: `{% extends %}`
 * becomes the base's body with each block's definitions chained (most derived first, for
 * `super()`), and each `include` / `import` / `from` node gets the composed tree of its file.
 * A file is read once per composition; a file that loads itself, directly or not, is refused.
 */

/** A composed template: its body, and each block's definitions from the most derived to the base. */
export interface Composition extends JinjaNode {
  readonly type: 'Composition';
  readonly body: readonly JinjaNode[];
  readonly chains: ReadonlyMap<string, readonly BlockNode[]>;
  /** Every block of every level, so variable analysis sees the ones the body does not render. */
  readonly blocks: readonly BlockNode[];
}

export interface ComposeContext {
  /** Parses a loaded file into converted nodes (its lines recorded under its own path). */
  readonly parse: (text: string, file: string) => JinjaNode;
  /** The error to throw for a failure at a node: located at the node's tag where known. */
  readonly locate: (node: JinjaNode, error: unknown) => Error;
  /** Where files are found, asked for at the first load; undefined without a prompt folder: no file may be loaded. */
  readonly folder: () => TemplateFolder | undefined;
  /** Characters all files of one template may have together. */
  readonly charLimit: number;
  readonly stamps: FileStamp[];
}

const maxFiles = 64;

interface Loading {
  readonly context: ComposeContext;
  readonly done: Map<string, Composition>;
  chars: number;
}

const ownBlocks = (program: JinjaNode): BlockNode[] => {
  const blocks = findNodes(program, 'Block') as BlockNode[];
  const names = new Set<string>();
  for (const block of blocks) {
    if (names.has(block.name)) throw new SyntaxError(`{% block ${block.name} %} is defined twice in one template: rename one`);
    names.add(block.name);
  }
  return blocks;
};

/** The composed tree of the first file a load statement names; undefined when none exists and it may be missing. */
const loadFile = (node: LoadNode, loading: Loading, stack: readonly string[]): Composition | undefined => {
  const keyword = node.type === 'FromImport' ? 'from' : node.type.toLowerCase();
  const folder = loading.context.folder();
  if (folder === undefined)
    throw new JinjaUnsupportedError(keyword, `{% ${keyword} %} outside a prompt folder is not supported yet: write the template inline`);
  let found;
  for (const name of node.names) {
    found = findTemplateFile(name, folder, loading.context.stamps);
    if (found !== undefined) break;
  }
  if (found === undefined) {
    if (node.ignoreMissing) return undefined;
    throw new Error(
      `{% ${keyword} %}: no template "${node.names.join('" or "')}" beside the prompt or at the prompt root: create it or fix the name`,
    );
  }
  if (stack.includes(found.path)) {
    throw new JinjaUnsupportedError(
      keyword,
      `{% ${keyword} %} of a template that loads itself (${[...stack, found.path].join(' → ')}) is not supported yet: use a macro that calls itself`,
    );
  }
  const done = loading.done.get(found.path);
  if (done !== undefined) return done;
  loading.chars += found.text.length;
  if (loading.done.size >= maxFiles || loading.chars > loading.context.charLimit) {
    throw new Error(`the template loads more than ${maxFiles} files or ${loading.context.charLimit} characters in all: load fewer`);
  }
  const composition = composeProgram(loading.context.parse(found.text, found.path), loading, [...stack, found.path]);
  loading.done.set(found.path, composition);
  return composition;
};

/** Gives each load statement in the tree the file it names. */
const attachLoads = (program: JinjaNode, loading: Loading, stack: readonly string[]): void => {
  for (const type of ['Include', 'Import', 'FromImport']) {
    for (const node of findNodes(program, type) as LoadNode[]) {
      try {
        node.template = loadFile(node, loading, stack);
      } catch (error) {
        throw loading.context.locate(node, error);
      }
    }
  }
};

const composeProgram = (program: JinjaNode, loading: Loading, stack: readonly string[]): Composition => {
  const body = (program as unknown as { readonly body: readonly JinjaNode[] }).body;
  const blocks = ownBlocks(program);
  attachLoads(program, loading, stack);
  const extendsNodes = findNodes(program, 'Extends') as LoadNode[];
  const at = body.findIndex((node) => node.type === 'Extends');
  const own = new Map(blocks.map((block) => [block.name, [block]]));
  if (extendsNodes.length === 0) return { type: 'Composition', body, chains: own, blocks } as Composition;
  const extendsNode = body[at] as LoadNode | undefined;
  if (extendsNodes.length > 1 || extendsNode === undefined) {
    throw loading.context.locate(
      extendsNodes[extendsNodes.length > 1 ? 1 : 0] as JinjaNode,
      new JinjaUnsupportedError(
        'extends',
        '{% extends %} inside another tag, or twice, is not supported yet: write one {% extends %} at the top level',
      ),
    );
  }
  let base: Composition;
  try {
    base = loadFile(extendsNode, loading, stack) as Composition;
  } catch (error) {
    throw loading.context.locate(extendsNode, error);
  }
  const chains = new Map(base.chains);
  for (const block of blocks) chains.set(block.name, [block, ...(base.chains.get(block.name) ?? [])]);
  // What follows `{% extends %}` runs (its `set`s reach the base) but writes nothing, as in Jinja2.
  const silent = { type: 'Silent', body: body.slice(at + 1) } as JinjaNode;
  return {
    type: 'Composition',
    body: [...body.slice(0, at), silent, ...base.body],
    chains,
    blocks: [...blocks, ...base.blocks],
  } as Composition;
};

/** The template `program` with every file it loads, as one tree. */
export const compose = (program: JinjaNode, context: ComposeContext): Composition =>
  composeProgram(program, { context, done: new Map(), chars: 0 }, []);
