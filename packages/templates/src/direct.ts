/**
 * The direct renderer: most prompts use only a sliver of Liquid — `{{ name }}`,
 * `{{ name | default: 'x' }}`, `{% if name %}`/`{% unless name %}` with `{% else %}` — and for them
 * a walk over a few pre-built nodes prints exactly what liquidjs prints, without liquidjs's
 * per-render context, generators and emitter. The template is still parsed by liquidjs when it
 * loads, so parse errors and variables
 * do not change; only the render step is replaced, and only when every markup token of the
 * skeleton is in the subset. Anything else (other filters and tags, `elsif`, operators, paths,
 * literals, unusual blanks) keeps the liquidjs render.
 *
 * Semantics, as liquidjs has them with the engine's options (`ownPropertyOnly`, no `strictVariables`,
 * no `jsTruthy`/`lenientIf`, no `outputEscape`), and as `direct.test.ts` checks against liquidjs:
 * - a name is an own enumerable property of the arguments (what `{ ...args }` copies); anything
 *   else, `constructor` included, is absent. Absent, `undefined` and `null` print nothing;
 * - `default` gives its literal for an absent value or an empty string;
 * - only absent values are falsy: an empty string, `'false'` and `'nil'` are truthy.
 * Arguments are strings. A render that meets any other value (a number, an object …) returns
 * `undefined`, and the caller renders with liquidjs, which knows what to do with it.
 *
 * Limits: the subset has no loops, so a render visits each node at most once and its work is
 * linear in the template (bounded by `parseLimit`) plus the arguments it prints. liquidjs charges
 * `memoryLimit` only in filters and ranges that allocate (`default` does not), so these templates
 * never charge it there either; and `renderLimitMs`, a wall-clock budget checked between nodes,
 * is only reached by a linear render of a bounded template under a budget of about 0 ms. Nor can
 * a render fail: no lookup or node throws.
 */

type DirectNode =
  /** Text run `index` of the template. */
  | { readonly kind: 'text'; readonly index: number }
  /** `{{ name }}`, or `{{ name | default: fallback }}` when `fallback` is set. */
  | { readonly kind: 'value'; readonly name: string; readonly fallback: string | undefined }
  /** `{% if name %}` (`whenSet`) or `{% unless name %}`, with its `{% else %}` part. */
  | {
      readonly kind: 'branch';
      readonly name: string;
      readonly whenSet: boolean;
      readonly then: readonly DirectNode[];
      readonly otherwise: readonly DirectNode[];
    };

/** A template the direct renderer can print; it refers to text runs by index, so skeletons share it. */
export type DirectTemplate = readonly DirectNode[];

/**
 * Names that liquidjs does not read as a plain lookup: literals, operators (`{{ not }}`), loop
 * objects, and the properties it computes on any object (`{{ size }}` counts the scope's keys).
 */
const reserved: ReadonlySet<string> = new Set([
  'nil',
  'null',
  'true',
  'false',
  'empty',
  'blank',
  'and',
  'or',
  'not',
  'contains',
  'forloop',
  'tablerowloop',
  'size',
  'first',
  'last',
]);

/**
 * The content of an output, blanks included: a name, optionally `| default:` and a quoted string
 * without backslashes or the other quote (so its text is its value) or a non-negative integer.
 * Only ASCII blanks; liquidjs also skips U+00A0 and others, which are left to it.
 */
const outputPattern =
  /^[ \t\r\n]*([A-Za-z_][\w-]*)(?:[ \t\r\n]*\|[ \t\r\n]*default[ \t\r\n]*:[ \t\r\n]*(?:"([^"'\\]*)"|'([^"'\\]*)'|(\d+)))?[ \t\r\n]*$/;
/** The content of a tag in the subset. */
const tagPattern = /^[ \t\r\n]*(?:(if|unless)[ \t\r\n]+([A-Za-z_][\w-]*)|(else|endif|endunless|comment|endcomment))[ \t\r\n]*$/;
/** An inline comment, `{%# … %}`: renders nothing (liquidjs checked its lines when it parsed). */
const inlineCommentPattern = /^[ \t\r\n]*#/;

const dash = 45;

/** What one markup token is, or `undefined` outside the subset. */
type Markup =
  | { readonly kind: 'value'; readonly name: string; readonly fallback: string | undefined }
  | { readonly kind: 'open'; readonly tag: 'if' | 'unless'; readonly name: string }
  | { readonly kind: 'else' | 'endif' | 'endunless' | 'comment' | 'endcomment' | 'nothing' };

const readMarkup = (markup: string): Markup | undefined => {
  // As liquidjs's DelimitedToken: a dash just inside a delimiter is whitespace control.
  const trimRight = markup.charCodeAt(markup.length - 3) === dash;
  const content = markup.slice(markup.charCodeAt(2) === dash ? 3 : 2, markup.length - (trimRight ? 3 : 2));
  if (markup.startsWith('{{')) {
    const match = outputPattern.exec(content);
    if (match === null) return undefined;
    const [, name = '', double, single, integer] = match;
    if (reserved.has(name)) return undefined;
    let fallback = double ?? single;
    if (integer !== undefined) {
      // liquidjs reads a number only if no word character follows, looking past the content: in
      // `{{ a | default: 7-}}` the dash makes `7` a variable name.
      if (trimRight && content.endsWith(integer)) return undefined;
      fallback = String(Number(integer));
    }
    return { kind: 'value', name, fallback };
  }
  if (inlineCommentPattern.test(content)) return { kind: 'nothing' };
  const match = tagPattern.exec(content);
  if (match === null) return undefined;
  const [, open, name = '', bare] = match;
  if (open === 'if' || open === 'unless') return reserved.has(name) ? undefined : { kind: 'open', tag: open, name };
  return { kind: bare as 'else' | 'endif' | 'endunless' | 'comment' | 'endcomment' };
};

/** A block being built: the `if`/`unless` that opened it, and where its nodes go. */
interface Open {
  readonly tag: 'if' | 'unless';
  readonly name: string;
  readonly then: DirectNode[];
  otherwise: DirectNode[] | undefined;
  /** Where the block itself goes. */
  readonly parent: DirectNode[];
}

/**
 * The direct template of a skeleton (its `sequence`: text run indices and markup as written), or
 * `undefined` if some markup is outside the subset or the blocks do not nest plainly (a second
 * `else`, an `endif` closing an `unless` …), which is liquidjs's to render or reject.
 */
export const compileDirect = (sequence: readonly (number | string)[]): DirectTemplate | undefined => {
  const root: DirectNode[] = [];
  const stack: Open[] = [];
  let nodes = root;
  for (let index = 0; index < sequence.length; index++) {
    const item = sequence[index] as number | string;
    if (typeof item === 'number') {
      nodes.push({ kind: 'text', index: item });
      continue;
    }
    const markup = readMarkup(item);
    if (markup === undefined) return undefined;
    switch (markup.kind) {
      case 'value':
        nodes.push({ kind: 'value', name: markup.name, fallback: markup.fallback });
        break;
      case 'nothing':
        break;
      case 'comment': {
        // The skeleton leaves nothing between a comment and its end.
        const next = sequence[++index];
        if (typeof next !== 'string' || readMarkup(next)?.kind !== 'endcomment') return undefined;
        break;
      }
      case 'open': {
        const open: Open = { tag: markup.tag, name: markup.name, then: [], otherwise: undefined, parent: nodes };
        stack.push(open);
        nodes = open.then;
        break;
      }
      case 'else': {
        const open = stack[stack.length - 1];
        if (open === undefined || open.otherwise !== undefined) return undefined;
        open.otherwise = [];
        nodes = open.otherwise;
        break;
      }
      case 'endif':
      case 'endunless': {
        const open = stack.pop();
        if (open === undefined || markup.kind !== `end${open.tag}`) return undefined;
        open.parent.push({ kind: 'branch', name: open.name, whenSet: open.tag === 'if', then: open.then, otherwise: open.otherwise ?? [] });
        nodes = open.parent;
        break;
      }
      default:
        // A stray `endcomment`.
        return undefined;
    }
  }
  return stack.length === 0 ? root : undefined;
};

/** Thrown (and caught below) when an argument the template reads is not a string. */
const notAString = Symbol('not a string');

const { propertyIsEnumerable } = Object.prototype;

/** The argument `name` as liquidjs sees it in the engine's scope, `{ ...args }`; absent is `undefined`. */
const lookup = (args: Readonly<Record<string, unknown>>, name: string): string | undefined => {
  if (!propertyIsEnumerable.call(args, name)) return undefined;
  const value = args[name];
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  throw notAString;
};

const renderNodes = (nodes: readonly DirectNode[], texts: readonly string[], args: Readonly<Record<string, unknown>>): string => {
  let output = '';
  for (const node of nodes) {
    if (node.kind === 'text') {
      output += texts[node.index] as string;
    } else if (node.kind === 'value') {
      const value = lookup(args, node.name) ?? '';
      output += value === '' && node.fallback !== undefined ? node.fallback : value;
    } else {
      const set = lookup(args, node.name) !== undefined;
      output += renderNodes(set === node.whenSet ? node.then : node.otherwise, texts, args);
    }
  }
  return output;
};

/**
 * What liquidjs prints for the template with text runs `texts` and scope `{ ...args }`, or
 * `undefined` if the template reads an argument that is not a string (liquidjs then renders it).
 */
export const renderDirect = (
  template: DirectTemplate,
  texts: readonly string[],
  args: Readonly<Record<string, unknown>>,
): string | undefined => {
  try {
    return renderNodes(template, texts, args);
  } catch (error) {
    if (error === notAString) return undefined;
    throw error;
  }
};
