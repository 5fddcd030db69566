/**
 * What the Jinja engine reads from a parsed template without running it: the names a caller must
 * supply, and the numbers a filter turns into a size. The syntax tree is @huggingface/jinja's, seen
 * structurally (the package exports no node types): every node has a string `type`.
 */

export interface JinjaNode {
  readonly type: string;
}

type Fields = Readonly<Record<string, unknown>>;

const isNode = (value: unknown): value is JinjaNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

const field = (node: JinjaNode, name: string): unknown => (node as unknown as Fields)[name];

/** The nodes in a field: a node, a list of nodes, or lists of those. */
const nodes = (value: unknown): JinjaNode[] => (Array.isArray(value) ? value.flatMap(nodes) : isNode(value) ? [value] : []);

/** Names the runtime defines, or a block defines for its body; never arguments. */
const builtins: ReadonlySet<string> = new Set([
  'true',
  'false',
  'none',
  'True',
  'False',
  'None',
  'range',
  'namespace',
  'raise_exception',
  'loop',
  'caller',
  'varargs',
  'kwargs',
  'self',
  'super',
]);

/** Filters whose first argument (or `width=`) is a count of characters to allocate. */
const sizingFilters: ReadonlySet<string> = new Set(['indent', 'center']);

export interface TreeFacts {
  /** Names read but never set in the template, in first-use order: the template's arguments. */
  readonly variables: readonly string[];
  /** Expressions whose value becomes a size; the engine bounds them when they are evaluated. */
  readonly sizes: ReadonlySet<JinjaNode>;
  /** The filters the template applies, by name. */
  readonly filters: ReadonlySet<string>;
}

/** Names a loop variable, `set` target or parameter list binds (`a`, `(k, v)`, `x=1`). */
const boundNames = (target: unknown, into: Set<string>): void => {
  for (const node of nodes(target)) {
    if (node.type === 'Identifier') into.add(String(field(node, 'value')));
    else if (node.type === 'TupleLiteral' || node.type === 'ArrayLiteral') boundNames(field(node, 'value'), into);
    else if (node.type === 'KeywordArgumentExpression') boundNames(field(node, 'key'), into);
  }
};

/** What a walk has found so far. */
interface Walk {
  readonly read: string[];
  readonly seen: Set<string>;
  readonly bound: Set<string>;
  readonly sizes: Set<JinjaNode>;
  readonly filters: Set<string>;
}

const visitAll = (walk: Walk, value: unknown): void => {
  for (const node of nodes(value)) visit(walk, node);
};

/** The expressions a sizing filter's call allocates by: its first argument, or `width=`. */
const addSizes = (walk: Walk, args: readonly JinjaNode[]): void => {
  for (const [index, arg] of args.entries()) {
    if (arg.type === 'KeywordArgumentExpression') {
      if (String(field(nodes(field(arg, 'key'))[0] ?? arg, 'value')) === 'width')
        for (const value of nodes(field(arg, 'value'))) walk.sizes.add(value);
    } else if (index === 0) {
      walk.sizes.add(arg);
    }
  }
};

const visitFilter = (walk: Walk, filter: unknown): void => {
  // The filter's name is no variable; its call arguments are expressions.
  for (const node of nodes(filter)) {
    if (node.type === 'Identifier') walk.filters.add(String(field(node, 'value')));
    if (node.type !== 'CallExpression') continue;
    const args = nodes(field(node, 'args'));
    const callee = nodes(field(node, 'callee'))[0];
    if (callee?.type === 'Identifier') walk.filters.add(String(field(callee, 'value')));
    if (callee?.type === 'Identifier' && sizingFilters.has(String(field(callee, 'value')))) addSizes(walk, args);
    visitAll(walk, args);
  }
};

const visitParameters = (walk: Walk, parameters: unknown): void => {
  boundNames(parameters, walk.bound);
  // A parameter's default is an expression of the enclosing scope.
  for (const node of nodes(parameters)) if (node.type === 'KeywordArgumentExpression') visitAll(walk, field(node, 'value'));
};

const visitIdentifier = (walk: Walk, node: JinjaNode): void => {
  const name = String(field(node, 'value'));
  if (!walk.seen.has(name)) {
    walk.seen.add(name);
    walk.read.push(name);
  }
};

/** Every other node's children are expressions or statements in its own fields. */
const visitChildren = (walk: Walk, node: JinjaNode): void => {
  for (const [name, value] of Object.entries(node as unknown as Fields)) {
    // An operator is a lexer token (`and` is one of type Identifier), not a node.
    if (name === 'operator') continue;
    if (Array.isArray(value)) {
      visitAll(walk, value);
    } else if (isNode(value)) {
      visit(walk, value);
    }
  }
};

/** The statements that bind names (a loop, `set`, a macro, a call block); false for any other node. */
const visitBinding = (walk: Walk, node: JinjaNode): boolean => {
  switch (node.type) {
    case 'For':
      boundNames(field(node, 'loopvar'), walk.bound);
      visitAll(walk, [field(node, 'iterable'), field(node, 'body'), field(node, 'defaultBlock')]);
      return true;
    case 'Set':
      boundNames(field(node, 'assignee'), walk.bound);
      // `{% set ns.x = 1 %}` reads `ns`.
      for (const target of nodes(field(node, 'assignee'))) if (target.type === 'MemberExpression') visit(walk, target);
      visitAll(walk, [field(node, 'value'), field(node, 'body')]);
      return true;
    case 'Macro':
      boundNames(field(node, 'name'), walk.bound);
      visitParameters(walk, field(node, 'args'));
      visitAll(walk, field(node, 'body'));
      return true;
    case 'With':
      visitParameters(walk, field(node, 'assignments'));
      visitAll(walk, field(node, 'body'));
      return true;
    case 'Import':
    case 'FromImport':
      // Without context, an imported file's names are its own, not arguments.
      if (field(node, 'target') !== undefined) walk.bound.add(String(field(node, 'target')));
      for (const [, alias] of (field(node, 'imports') ?? []) as [string, string][]) walk.bound.add(alias);
      if (field(node, 'withContext') === true) visitAll(walk, field(node, 'template'));
      return true;
    case 'CallStatement':
      visitParameters(walk, field(node, 'callerArgs'));
      visitAll(walk, [field(node, 'call'), field(node, 'body')]);
      return true;
    default:
      return false;
  }
};

function visit(walk: Walk, node: JinjaNode): void {
  switch (node.type) {
    case 'Identifier':
      return visitIdentifier(walk, node);
    case 'MemberExpression':
      visitAll(walk, field(node, 'object'));
      // `a.b` names an attribute; `a[b]` reads `b`.
      if (field(node, 'computed') === true) visitAll(walk, field(node, 'property'));
      return;
    case 'FilterExpression':
      visitAll(walk, field(node, 'operand'));
      visitFilter(walk, field(node, 'filter'));
      return;
    case 'FilterStatement':
      visitFilter(walk, field(node, 'filter'));
      visitAll(walk, field(node, 'body'));
      return;
    case 'TestExpression':
      visitAll(walk, field(node, 'operand'));
      return;
    case 'KeywordArgumentExpression':
      visitAll(walk, field(node, 'value'));
      return;
    case 'ObjectLiteral': {
      const entries = field(node, 'value');
      if (entries instanceof Map) for (const [key, value] of entries) visitAll(walk, [key, value]);
      return;
    }
    case 'StringLiteral':
    case 'IntegerLiteral':
    case 'FloatLiteral':
    case 'Comment':
      return;
    default:
      if (!visitBinding(walk, node)) visitChildren(walk, node);
  }
}

/**
 * Walks the tree once. A name set anywhere in the template (by `set`, a loop, a macro or its
 * parameters) is a local, not an argument, even where it is read before it is set: simpler than
 * Jinja's scoping and never asks a caller for a name the template supplies itself.
 */
export const readTree = (program: JinjaNode): TreeFacts => {
  const walk: Walk = { read: [], seen: new Set(), bound: new Set(), sizes: new Set(), filters: new Set() };
  visit(walk, program);
  const { read, bound, sizes, filters } = walk;
  return { variables: read.filter((name) => !bound.has(name) && !builtins.has(name)), sizes, filters };
};
