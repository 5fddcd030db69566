import path from 'node:path';
import { Context, LiquidError } from 'liquidjs';
import type { Liquid, Template } from 'liquidjs';
import { PromptyardError, describeError } from '@promptyard/core';
import type { CompiledTemplate, RenderOptions } from '@promptyard/core';
import { renderDirect } from './direct.js';
import type { DirectTemplate } from './direct.js';
import { textsName } from './skeleton.js';

/** Where a template came from, to turn Liquid's positions into `file:line`. */
export interface Site {
  readonly file: string | undefined;
  readonly lineOffset: number;
  readonly root: string | undefined;
}

/** What compiling found about a template's markup; shared by the prompts with the same skeleton. */
export interface TemplateShape {
  readonly variables: readonly string[];
  /** How to render it without liquidjs, if its markup is all in the direct renderer's subset. */
  readonly direct: DirectTemplate | undefined;
  /** The skeleton, one string for every prompt that has it (not one copy per prompt). */
  readonly skeleton?: string | undefined;
  /** A tree of the template's own: a source parsed in full, or a skeleton with partials. */
  readonly ownTree?: Template[] | undefined;
  readonly partials: boolean;
}

/** What every template of one engine renders with. */
export interface Renderer {
  readonly liquid: Liquid;
  readonly renderLimitMs: number;
  /** The library root partials come from, to name a partial's file in errors. */
  readonly root: string | undefined;
  /** The syntax tree of a shared skeleton, parsed again when it was dropped. */
  treeOf(skeleton: string): Template[];
}

/**
 * One compiled template. A class, not a closure: thousands are kept, and a method on the prototype
 * costs them nothing, while a closure per template (with its context) costs memory for each
 * (bench/prompts.bench.ts).
 */
export class LiquidTemplate implements CompiledTemplate {
  readonly variables: readonly string[];
  readonly #renderer: Renderer;
  readonly #direct: DirectTemplate | undefined;
  /** The text runs a skeleton leaves out (exactly as many as there are). */
  readonly #texts: readonly string[] | undefined;
  /** The shared skeleton, whose tree is kept by the engine. */
  readonly #skeleton: string | undefined;
  /** The tree this template keeps itself: a source parsed in full, or a skeleton with partials. */
  readonly #ownTree: Template[] | undefined;
  readonly #partials: boolean;
  readonly #file: string | undefined;
  readonly #lineOffset: number;

  constructor(
    renderer: Renderer,
    shape: TemplateShape,
    texts: readonly string[] | undefined,
    file: string | undefined,
    lineOffset: number,
  ) {
    this.variables = shape.variables;
    this.#renderer = renderer;
    this.#direct = shape.direct;
    this.#skeleton = shape.skeleton;
    this.#ownTree = shape.ownTree;
    this.#partials = shape.partials;
    this.#texts = texts;
    this.#file = file;
    this.#lineOffset = lineOffset;
  }

  /** A render failure as a PromptyardError naming the file and line (where it came from is built only then). */
  #failure(error: unknown): PromptyardError {
    return templateError(error, { file: this.#file, lineOffset: this.#lineOffset, root: this.#renderer.root });
  }

  async render(args: Readonly<Record<string, string>>, renderOptions: RenderOptions = {}): Promise<string> {
    const texts = this.#texts;
    // The signal is read only where a render can wait (partials): a direct or synchronous
    // render is bounded by renderLimitMs, and reading it would make a lazy one (core's Deadline).
    if (this.#direct !== undefined && texts !== undefined) {
      // The subset cannot fail (see direct.ts), but should it, it fails like a Liquid render.
      let output: string | undefined;
      try {
        output = renderDirect(this.#direct, texts, args);
      } catch (error) {
        throw this.#failure(error);
      }
      // `undefined`: an argument is not a string; liquidjs renders it below.
      if (output !== undefined) return output;
    }
    const { liquid, renderLimitMs } = this.#renderer;
    const tree = this.#ownTree ?? this.#renderer.treeOf(this.#skeleton as string);
    // A copy, because `{% increment %}` writes to the scope. As globals the arguments also
    // reach `{% render %}` partials, whose scope is otherwise isolated. The text runs go in
    // last, so no argument can replace them.
    const scope: Record<string, unknown> = { ...args };
    if (texts !== undefined) scope[textsName] = texts;
    if (!this.#partials) {
      // Nothing to wait for: rendering synchronously saves a promise per template node, and
      // renderLimitMs still applies between nodes.
      try {
        return String(liquid.renderSync(tree, scope, { globals: scope }));
      } catch (error) {
        throw this.#failure(error);
      }
    }
    // With a signal, the render itself stops at it (between nodes, partials included),
    // instead of running on after the caller gave up.
    const { signal } = renderOptions;
    signal?.throwIfAborted();
    const context = signal === undefined ? scope : abortingContext(liquid, scope, renderLimitMs, signal);
    const rendering = liquid.render(tree, context, { globals: scope }).then(
      (output: unknown) => String(output),
      (error: unknown) => {
        if (signal?.aborted === true) throw signal.reason;
        throw this.#failure(error);
      },
    );
    return signal === undefined ? rendering : abortable(rendering, signal);
  }
}

/**
 * A render context whose render limiter (which liquidjs checks between nodes, and hands on to
 * partials) also stops at `signal`. liquidjs takes no signal of its own.
 */
const abortingContext = (liquid: Liquid, scope: Record<string, unknown>, renderLimitMs: number, signal: AbortSignal): Context => {
  const limit = performance.now() + renderLimitMs;
  const limiter = {
    use: (): void => {},
    check: (now: number): void => {
      signal.throwIfAborted();
      if (now > limit) throw new Error('template render limit exceeded');
    },
  };
  return new Context(scope, liquid.options, { globals: scope }, { renderLimit: limiter as never, liquid });
};

const abortable = <T>(promise: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

/** Liquid appends `, file:…, line:…, col:…` to messages that have no original error. */
const positionSuffix = /, (?:file:.*, )?line:\d+, col:\d+$/;
const lookupFailure = /^ENOENT: Failed to lookup "(.*)" in /;

export const templateError = (error: unknown, site: Site): PromptyardError => {
  let file = site.file;
  let line: number | undefined;
  let reason = describeError(error);
  if (LiquidError.is(error)) {
    const { token } = error;
    const [tokenLine] = token.getPosition();
    if (token.file === undefined || token.file === site.file) {
      line = tokenLine === undefined ? undefined : tokenLine + site.lineOffset;
    } else {
      // The error is inside a partial: name it relative to the root, never as an absolute path.
      file = site.root === undefined ? token.file : path.relative(site.root, token.file);
      line = tokenLine;
    }
    reason = error.originalError?.message ?? error.message.replace(positionSuffix, '');
  }
  const missing = lookupFailure.exec(reason);
  if (missing !== null) reason = `partial "${missing[1] ?? ''}" not found in the library`;
  const data: Record<string, unknown> = {};
  if (file !== undefined) data['file'] = file;
  if (line !== undefined) data['line'] = line;
  return new PromptyardError('TEMPLATE_ERROR', `${where(file, line)}${reason}`, { cause: error, data });
};

/** `file:line: `, `file: `, `line n: ` or nothing. */
const where = (file: string | undefined, line: number | undefined): string => {
  if (file === undefined) return line === undefined ? '' : `line ${line}: `;
  return line === undefined ? `${file}: ` : `${file}:${line}: `;
};
