import { statSync } from 'node:fs';
import path from 'node:path';
import { Liquid, Tag } from 'liquidjs';
import type { Context, LiquidOptions, Parser, TagToken, Template, TopLevelToken } from 'liquidjs';
import { resolveInsideSync } from '@promptyard/core';
import type { CompileOptions, CompiledTemplate, TemplateEngine } from '@promptyard/core';
import { compileDirect } from './direct.js';
import { LiquidTemplate, templateError, type Renderer, type Site, type TemplateShape } from './liquid-template.js';
import { buildSkeleton, textsName } from './skeleton.js';
import { substitutionTemplate } from './substitution.js';
import { templateEngine } from './template-engine.js';

export interface LiquidEngineOptions {
  /**
   * The library root. Only with a root may templates use `{% render %}`, `{% include %}` and
   * `{% layout %}`, and the files they name must resolve (symlinks followed) inside it.
   */
  readonly root?: string;
  /** Wall-clock budget of one render, checked between template nodes. Default 5000. */
  readonly renderLimitMs?: number;
  /** Allocation budget of one render (ranges, array filters, string padding …). Default 10,000,000. */
  readonly memoryLimit?: number;
  /** Characters one parse may read. Default 1,000,000. */
  readonly parseLimit?: number;
}

/** How many skeletons' variables an engine keeps, to share them between prompts. */
const analysisLimit = 1000;
/** How many skeletons' syntax trees an engine keeps. */
const treeLimit = 1000;

/** A map that forgets its least recently used entry past `limit` entries. */
class LeastRecentlyUsed<V> {
  readonly #entries = new Map<string, V>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, value);
  }
}

/** liquidjs does not export its `TagClass` type. */
type TagClass = Liquid['tags'][string];

const partialTags = ['include', 'render', 'layout'] as const;

/** A quoted name with no `{{`/`{%` inside, so the partial is known when the template is parsed. */
const literalPartialName = /^\s*(["'])([^"'{}]+)\1/;

/**
 * Liquid with the options a prompt server wants: undefined variables render empty, unknown filters
 * fail at load time, no prototype access, no HTML escaping, and finite parse/render/memory budgets.
 */
export const createLiquidEngine = (options: LiquidEngineOptions = {}): TemplateEngine => {
  const root = options.root === undefined ? undefined : path.resolve(options.root);
  const settings = liquidOptions(options);
  const { parseLimit } = settings;
  const renderLimitMs = settings.renderLimit ?? 5000;
  const liquid = new Liquid(settings);
  // Set while Liquid parses: whether a partial tag was met (such a template renders
  // asynchronously, reading its partials, and its parse is not shared), and whether the source is
  // a skeleton (anywhere else, in a source parsed in full or a partial, the text tag does not exist).
  let sawPartial = false;
  let parsingSkeleton = false;
  for (const name of partialTags) {
    const tag = liquid.tags[name];
    if (tag === undefined) continue;
    const onPartial = (): void => {
      sawPartial = true;
    };
    liquid.registerTag(name, root === undefined ? refusedPartialTag : literalPartialTag(tag, root, onPartial));
  }
  liquid.registerTag(
    textsName,
    textTag(() => parsingSkeleton),
  );

  const parse = (source: string, file: string | undefined, skeleton: boolean): { templates: Template[]; partials: boolean } => {
    sawPartial = false;
    parsingSkeleton = skeleton;
    try {
      return { templates: liquid.parse(source, file), partials: sawPartial };
    } finally {
      parsingSkeleton = false;
    }
  };

  /**
   * Skeletons without partials, by skeleton, least recently used first: their variables and direct
   * templates (filled when prompts compile) and their syntax trees (when they render). A parsed
   * skeleton does not depend on the text runs, so prompts with the same markup on the same lines
   * share one parse.
   * The trees are kept here only, for the prompts rendered lately: a prompt whose tree was dropped
   * parses its skeleton again (which parsed once already, so cannot fail). Compiling 10,000
   * prompts thus leaves no 10,000 trees behind.
   */
  const analyses = new LeastRecentlyUsed<TemplateShape>(analysisLimit);
  const trees = new LeastRecentlyUsed<Template[]>(treeLimit);

  const compile = (source: string, compileOptions: CompileOptions = {}): CompiledTemplate => {
    const fast = substitution(source);
    if (fast !== undefined) return fast;
    const site: Site = { file: compileOptions.file, lineOffset: compileOptions.lineOffset ?? 0, root };
    // Liquid parses the skeleton: the markup, each text run replaced by a text tag (see
    // skeleton.ts). Without one (unclosed delimiters and other odd shapes, or a skeleton over the
    // parse limit) it parses the source, which also reports liquidjs's own error.
    let skeleton = source.length <= parseLimit ? buildSkeleton(source) : undefined;
    if (skeleton !== undefined && skeleton.source.length > parseLimit) skeleton = undefined;

    let shape = skeleton === undefined ? undefined : analyses.get(skeleton.source);
    if (shape === undefined) {
      try {
        // A skeleton is parsed without a file name: its positions are the template's own,
        // whichever file it came from (a position in another file is a partial's).
        const parsed = skeleton === undefined ? parse(source, compileOptions.file, false) : parse(skeleton.source, undefined, true);
        // Partials are analysed too: `include` shares the caller's scope, and arguments are globals.
        const variables = liquid.globalVariablesSync(parsed.templates);
        if (skeleton === undefined || parsed.partials) {
          // A tree of its own: a source parsed in full, or a skeleton with partials.
          shape = { variables, direct: undefined, skeleton: skeleton?.source, ownTree: parsed.templates, partials: parsed.partials };
        } else {
          // Parsed by liquidjs all the same (above): its errors and variables stand either way.
          shape = { variables, direct: compileDirect(skeleton.sequence), skeleton: skeleton.source, partials: false };
          analyses.set(skeleton.source, shape);
        }
      } catch (error) {
        throw templateError(error, site);
      }
    }
    // Kept per prompt: its text runs and the shared skeleton, not its own skeleton string and token
    // sequence. `slice`: exactly as many runs as there are, without the spare room an array grown by
    // push keeps.
    return new LiquidTemplate(renderer, shape, skeleton?.texts.slice(), compileOptions.file, site.lineOffset);
  };

  const renderer: Renderer = {
    liquid,
    renderLimitMs,
    root,
    treeOf: (key) => {
      let tree = trees.get(key);
      if (tree === undefined) {
        tree = parse(key, undefined, true).templates;
        trees.set(key, tree);
      }
      return tree;
    },
  };

  return templateEngine('liquid', compile);
};

/**
 * The options of the engine's `Liquid` instance (before the partial tags are replaced). Exported
 * for the tests, which compare the engine with a plain `Liquid` on the same options.
 */
export const liquidOptions = (options: LiquidEngineOptions = {}): LiquidOptions & { parseLimit: number } => {
  const directories = options.root === undefined ? [] : [path.resolve(options.root)];
  return {
    root: directories,
    partials: directories,
    layouts: directories,
    relativeReference: false,
    // Quoted names are literals, bare names would be variables; `literalPartialTag` refuses those.
    dynamicPartials: true,
    extname: '.md',
    cache: false,
    strictVariables: false,
    strictFilters: true,
    ownPropertyOnly: true,
    parseLimit: options.parseLimit ?? 1_000_000,
    renderLimit: options.renderLimitMs ?? 5000,
    memoryLimit: options.memoryLimit ?? 10_000_000,
  };
};

/** `{{ name }}` and nothing more; the capture group makes `split` interleave text and names. */
const simpleOutput = /\{\{[ \t\r\n]*([A-Za-z_]\w*)[ \t\r\n]*\}\}/;
/** Liquid reads these as literals, not variables. */
const liquidLiterals: ReadonlySet<string> = new Set(['nil', 'null', 'true', 'false', 'empty', 'blank']);

/**
 * The fast path: a source whose only Liquid is `{{ name }}` renders as Liquid would (arguments are
 * strings, printed unescaped; unknown and inherited names print nothing) without a Liquid parse,
 * which would dominate loading a large library. Anything else —
 * tags, filters, paths, `{{-`, a stray `{{` — returns `undefined` and goes to Liquid.
 */
const substitution = (source: string): CompiledTemplate | undefined => {
  const hasTag = source.includes('{%');
  if (!hasTag && !source.includes('{{')) return substitutionTemplate(source, [source]);
  // Any tag means Liquid; finding that out before splitting saves a regex pass over the source.
  if (hasTag) return undefined;
  const parts = source.split(simpleOutput);
  for (const [index, part] of parts.entries()) {
    if (index % 2 === 1) {
      if (liquidLiterals.has(part)) return undefined;
    } else if (part.includes('{{') || part.includes('{%') || (index < parts.length - 1 && part.endsWith('{'))) {
      // A stray `{{`/`{%` is Liquid's to judge; `{{{ a }}}` tokenizes differently in Liquid.
      return undefined;
    }
  }
  return substitutionTemplate(source, parts);
};

/**
 * `{%__promptyard_text__ i%}`: prints text run `i` of the compiled template, which the render passes
 * in the hidden global of the same name. Exists only in skeletons; elsewhere it is an unknown tag.
 */
const textTag = (inSkeleton: () => boolean): TagClass =>
  class TextTag extends Tag {
    readonly #index: number;

    constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
      if (!inSkeleton()) throw new Error(`tag "${token.name}" not found`);
      super(token, remainTokens, liquid);
      this.#index = Number(token.args);
    }

    render(context: Context): string {
      const texts = (context.globals as Record<string, readonly string[] | undefined>)[textsName];
      return texts?.[this.#index] ?? '';
    }
  };

const refusedPartialTag = {
  parse(token: TagToken): void {
    throw new Error(`{% ${token.name} %} is not available here: partials need a library root, so inline the text instead`);
  },
  render: (): string => '',
};

/**
 * Lets a partial tag through only with a literal file name that exists inside the root, so no
 * argument can pick the file and a missing partial is reported at its line when the prompt loads.
 */
const literalPartialTag = (Base: TagClass, root: string, onPartial: () => void): TagClass =>
  class LiteralPartialTag extends Base {
    // The base class renders; TypeScript only knows it as the abstract `Tag`.
    declare render: Tag['render'];

    constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
      const name = literalPartialName.exec(token.args)?.[2];
      if (name === undefined) {
        throw new Error(`{% ${token.name} %} takes a quoted file name, like {% ${token.name} 'header' %}`);
      }
      if (!isFileInside(root, name)) throw new Error(`partial "${name}" not found in the library`);
      onPartial();
      super(token, remainTokens, liquid, parser);
    }
  };

/**
 * Mirrors liquidjs's lookup (`.md` added to a name without extension, symlinks resolved). liquidjs
 * still enforces the root when it renders; this check only reports a bad name early, at its line.
 */
const isFileInside = (root: string, name: string): boolean => {
  const file = resolveInsideSync(root, path.resolve(root, path.extname(name) === '' ? `${name}.md` : name));
  try {
    return file !== undefined && statSync(file).isFile();
  } catch {
    return false;
  }
};
