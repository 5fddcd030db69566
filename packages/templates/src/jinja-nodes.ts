import { JinjaUnsupportedError } from './jinja-source.js';
import { dottedName, marker } from './jinja-statements.js';
import type { JinjaNode } from './jinja-tree.js';

/**
 * The nodes of Jinja2's statements that @huggingface/jinja lacks, made from the marker filter
 * statements jinja-statements.ts wrote (`{% filter __yard_block("name", …) %}`), and what Jinja2
 * evaluates otherwise rewritten into nodes the library evaluates as Jinja2 does: `loop.cycle()`,
 * `{% set x | f %}`, `| tojson`, `| d` / `| count` / `| e`, `{% call a.b() %}`, a loop over a
 * string. Files named by `extends`, `include` and `import` are attached later (jinja-compose.ts);
 * here their names are only checked to be known before rendering.
 */

export interface BlockNode extends JinjaNode {
  readonly type: 'Block';
  readonly name: string;
  readonly scoped: boolean;
  readonly required: boolean;
  readonly body: readonly JinjaNode[];
}
/** A file another one loads: its candidates in order (`{% include ["a", "b"] %}`). */
export interface LoadNode extends JinjaNode {
  readonly type: 'Extends' | 'Include' | 'Import' | 'FromImport';
  readonly names: readonly string[];
  readonly ignoreMissing: boolean;
  readonly withContext: boolean;
  /** `import … as target`. */
  readonly target?: string;
  /** `from … import name as alias`: [name, alias] pairs. */
  readonly imports?: readonly (readonly [string, string])[];
  /** The loaded file, set by jinja-compose.ts; undefined for a missing `ignore missing` include. */
  template?: JinjaNode | undefined;
}

type Fields = Record<string, unknown>;
const field = (node: JinjaNode, name: string): unknown => (node as unknown as Fields)[name];
const isNode = (value: unknown): value is JinjaNode =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
const node = (fields: Fields & { type: string }): JinjaNode => fields as JinjaNode;

const literal = (value: JinjaNode | undefined): unknown => (value?.type === 'StringLiteral' ? field(value, 'value') : undefined);
const flag = (value: JinjaNode | undefined): boolean => value?.type === 'Identifier' && field(value, 'value') === 'true';
const strings = (values: readonly JinjaNode[]): string[] => values.map((value) => String(literal(value)));

/** The quoted file names of a load statement; a name computed at render time is not supported. */
const fileNames = (keyword: string, value: JinjaNode | undefined): string[] => {
  if (typeof literal(value) === 'string') return [String(literal(value))];
  const items = value?.type === 'ArrayLiteral' || value?.type === 'TupleLiteral' ? (field(value, 'value') as JinjaNode[]) : undefined;
  if (items !== undefined && items.length > 0 && items.every((item) => typeof literal(item) === 'string')) return strings(items);
  throw new JinjaUnsupportedError(
    keyword,
    `{% ${keyword} %} of a file name computed at render time is not supported yet: write the file name in quotes`,
  );
};

/** The node a marker filter statement stands for. */
const markerNode = (name: string, args: readonly JinjaNode[], body: readonly JinjaNode[]): JinjaNode => {
  const [first, second, third] = args;
  switch (name) {
    case marker.block:
      return node({ type: 'Block', name: String(literal(first)), scoped: flag(second), required: flag(third), body });
    case marker.with:
      for (const arg of args)
        if (arg.type !== 'KeywordArgumentExpression') throw new SyntaxError('{% with %}: write name = value, separated by commas');
      return node({ type: 'With', assignments: args, body });
    case marker.autoescape: {
      const off = first !== undefined && first.type === 'Identifier' && ['false', 'False'].includes(String(field(first, 'value')));
      if (!off)
        throw new JinjaUnsupportedError(
          'autoescape',
          '{% autoescape true %} (HTML-escaping of values) is not supported yet: escape each value with | e instead',
        );
      return node({ type: 'With', assignments: [], body });
    }
    case marker.extends:
      return node({ type: 'Extends', names: fileNames('extends', first), ignoreMissing: false, withContext: true });
    case marker.include:
      return node({ type: 'Include', names: fileNames('include', first), ignoreMissing: flag(second), withContext: flag(third) });
    case marker.import:
      return node({
        type: 'Import',
        names: fileNames('import', first),
        ignoreMissing: false,
        withContext: flag(third),
        target: literal(second),
      });
    default: {
      const names = strings(args.slice(2));
      const imports = names.flatMap((value, index) => (index % 2 === 0 ? [[value, names[index + 1] ?? value] as const] : []));
      for (const [imported] of imports)
        if (imported.startsWith('_'))
          throw new SyntaxError(`{% from %}: "${imported}" starts with an underscore, and such names cannot be imported`);
      return node({ type: 'FromImport', names: fileNames('from', first), ignoreMissing: false, withContext: flag(second), imports });
    }
  }
};

/** `loop.cycle(a, b)` as `[a, b][loop.index0 % 2]`, `loop.depth` as 1 (loops do not recurse here). */
const loopMember = (expression: JinjaNode): JinjaNode | undefined => {
  const callee = expression.type === 'CallExpression' ? (field(expression, 'callee') as JinjaNode) : expression;
  if (callee.type !== 'MemberExpression' || field(callee, 'computed') === true) return undefined;
  const object = field(callee, 'object') as JinjaNode;
  if (object.type !== 'Identifier' || field(object, 'value') !== 'loop') return undefined;
  const property = String(field(field(callee, 'property') as JinjaNode, 'value'));
  if (property === 'depth' || property === 'depth0') return node({ type: 'IntegerLiteral', value: property === 'depth' ? 1 : 0 });
  if (property === 'changed')
    throw new JinjaUnsupportedError('', 'loop.changed() is not supported yet: compare with loop.previtem instead');
  if (property !== 'cycle' || expression.type !== 'CallExpression') return undefined;
  const values = field(expression, 'args') as JinjaNode[];
  const index0 = node({ type: 'MemberExpression', object, property: node({ type: 'Identifier', value: 'index0' }), computed: false });
  const count = node({ type: 'IntegerLiteral', value: values.length });
  const at = node({ type: 'BinaryExpression', operator: { type: 'MultiplicativeBinaryOperator', value: '%' }, left: index0, right: count });
  return node({ type: 'MemberExpression', object: node({ type: 'ArrayLiteral', value: values }), property: at, computed: true });
};

/** `{% set x | f %}…{% endset %}` as `{% set x %}{% filter f %}…{% endfilter %}{% endset %}`. */
const filteredSet = (statement: JinjaNode): JinjaNode | undefined => {
  const assignee = field(statement, 'assignee') as JinjaNode;
  if (statement.type !== 'Set' || assignee.type !== 'FilterExpression' || field(statement, 'value') !== null) return undefined;
  const filter = node({ type: 'FilterStatement', filter: field(assignee, 'filter'), body: field(statement, 'body') });
  return node({ type: 'Set', assignee: field(assignee, 'operand'), value: null, body: [filter] });
};

const identifier = (value: string): JinjaNode => node({ type: 'Identifier', value });
const keyword = (key: string, value: JinjaNode): JinjaNode => node({ type: 'KeywordArgumentExpression', key: identifier(key), value });
const call = (name: string, args: readonly JinjaNode[]): JinjaNode => node({ type: 'CallExpression', callee: identifier(name), args });
const htmlSafe: readonly (readonly [string, string])[] = [
  ['<', '\\u003c'],
  ['>', '\\u003e'],
  ['&', '\\u0026'],
  ["'", '\\u0027'],
];

/**
 * `x | tojson` as Jinja2 writes it: keys sorted, non-ASCII escaped (Python's json.dumps defaults),
 * and `<`, `>`, `&`, `'` escaped for HTML (its htmlsafe_json_dumps).
 */
const pythonJson = (expression: JinjaNode): JinjaNode | undefined => {
  const filter = field(expression, 'filter') as JinjaNode | undefined;
  if (expression.type !== 'FilterExpression' || filter === undefined) return undefined;
  const named = filter.type === 'CallExpression' ? (field(filter, 'callee') as JinjaNode) : filter;
  if (named.type !== 'Identifier' || field(named, 'value') !== 'tojson') return undefined;
  const given = filter.type === 'CallExpression' ? (field(filter, 'args') as JinjaNode[]) : [];
  const keys = new Set(
    given.map((arg) => (arg.type === 'KeywordArgumentExpression' ? field(field(arg, 'key') as JinjaNode, 'value') : undefined)),
  );
  const defaults = [['sort_keys', 'true'] as const, ['ensure_ascii', 'true'] as const].filter(([key]) => !keys.has(key));
  const json = node({
    type: 'FilterExpression',
    operand: field(expression, 'operand'),
    filter: call('tojson', [...given, ...defaults.map(([key, value]) => keyword(key, identifier(value)))]),
  });
  return htmlSafe.reduce(
    (operand, [from, to]) =>
      node({
        type: 'FilterExpression',
        operand,
        filter: call('replace', [node({ type: 'StringLiteral', value: from }), node({ type: 'StringLiteral', value: to })]),
      }),
    json,
  );
};

/** Jinja2's other names for filters the library has. */
const aliases: Readonly<Record<string, string>> = { d: 'default', count: 'length' };
/** Jinja2's HTML escape (markupsafe's), as `string` then replacements: `&` first. */
const escapeFilters = (): JinjaNode[] => [
  identifier('string'),
  ...[
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
    ['"', '&#34;'],
    ["'", '&#39;'],
  ].map(([from = '', to = '']) =>
    call('replace', [node({ type: 'StringLiteral', value: from }), node({ type: 'StringLiteral', value: to })]),
  ),
];

/** `| d`, `| count` under the library's names; `| e`, `| escape`, `| forceescape` as the filters they amount to. */
const filterAlias = (expression: JinjaNode): JinjaNode | undefined => {
  if (expression.type !== 'FilterExpression' && expression.type !== 'FilterStatement') return undefined;
  const filter = field(expression, 'filter') as JinjaNode;
  const named = filter.type === 'CallExpression' ? (field(filter, 'callee') as JinjaNode) : filter;
  const name = named.type === 'Identifier' ? String(field(named, 'value')) : '';
  const alias = Object.hasOwn(aliases, name) ? aliases[name] : undefined;
  if (alias !== undefined) {
    const renamed = identifier(alias);
    const replaced =
      filter.type === 'CallExpression' ? node({ ...(filter as unknown as Fields), type: 'CallExpression', callee: renamed }) : renamed;
    (expression as unknown as Fields)['filter'] = replaced;
    return expression;
  }
  if (!['e', 'escape', 'forceescape'].includes(name) || filter.type !== 'Identifier') return undefined;
  if (expression.type === 'FilterStatement') {
    return escapeFilters().reduce(
      (body, next) => node({ type: 'FilterStatement', filter: next, body: [body] }),
      node({ type: 'Program', body: field(expression, 'body') }),
    );
  }
  return escapeFilters().reduce(
    (operand, next) => node({ type: 'FilterExpression', operand, filter: next }),
    field(expression, 'operand') as JinjaNode,
  );
};

/** A loop's iterable marked so that a string is looped over by character, as in Python. */
const iterableOf = (statement: JinjaNode): JinjaNode | undefined => {
  if (statement.type !== 'For') return undefined;
  const fields = statement as unknown as Fields;
  const iterable = fields['iterable'] as JinjaNode;
  // The library reads `for x in xs if test` from the iterable's type: the list is its left side.
  const holder = (iterable.type === 'SelectExpression' ? iterable : statement) as unknown as Fields;
  const key = iterable.type === 'SelectExpression' ? 'lhs' : 'iterable';
  holder[key] = node({ type: 'Iterable', expression: holder[key] });
  return statement;
};

/** `{% call a.b(…) %}`: the callee jinja-statements.ts wrote as one name, as the member expression it was. */
const dottedCallee = (statement: JinjaNode): JinjaNode | undefined => {
  const callExpression = statement.type === 'CallStatement' ? (field(statement, 'call') as JinjaNode) : undefined;
  const callee = callExpression === undefined ? undefined : (field(callExpression, 'callee') as JinjaNode);
  const name = callee?.type === 'Identifier' ? String(field(callee, 'value')) : '';
  if (callExpression === undefined || !name.startsWith(dottedName)) return undefined;
  const [first = '', ...rest] = name.slice(dottedName.length).split('.');
  const member = rest.reduce(
    (object, property) => node({ type: 'MemberExpression', object, property: identifier(property), computed: false }),
    identifier(first),
  );
  (callExpression as unknown as Fields)['callee'] = member;
  return statement;
};

/**
 * The tree with marker statements as their own nodes, and Jinja2's expressions the library lacks
 * rewritten; `lines` learns each new node's line from the node it replaces.
 */
export const convertNodes = <Site>(
  root: JinjaNode,
  lines: Map<JinjaNode, Site>,
  locate: (node: JinjaNode, error: unknown) => Error,
): JinjaNode => {
  // In place: the library's nodes keep their classes (its macros look for `instanceof Statement`).
  const convert = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) value[index] = convert(item);
      return value;
    }
    if (value instanceof Map) return new Map([...value].map(([key, item]) => [convert(key), convert(item)]));
    if (!isNode(value)) return value;
    const fields = value as unknown as Fields;
    for (const [name, item] of Object.entries(fields)) if (name !== 'operator') fields[name] = convert(item);
    let result = value;
    const filter = field(result, 'filter') as JinjaNode | undefined;
    const callee = filter?.type === 'CallExpression' ? (field(filter, 'callee') as JinjaNode) : undefined;
    const name = callee?.type === 'Identifier' ? String(field(callee, 'value')) : '';
    try {
      if (result.type === 'FilterStatement' && name.startsWith('__yard_')) {
        result = markerNode(name, field(filter as JinjaNode, 'args') as JinjaNode[], field(result, 'body') as JinjaNode[]);
      }
      result =
        loopMember(result) ??
        filteredSet(result) ??
        pythonJson(result) ??
        filterAlias(result) ??
        dottedCallee(result) ??
        iterableOf(result) ??
        result;
    } catch (error) {
      throw locate(value, error);
    }
    const site = lines.get(value);
    if (site !== undefined && result !== value) lines.set(result, site);
    return result;
  };
  return convert(root) as JinjaNode;
};

/** Every node of a type in a tree, loaded files excluded. */
export const findNodes = (root: JinjaNode, type: string): JinjaNode[] => {
  const found: JinjaNode[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (isNode(value)) {
      if (value.type === type) found.push(value);
      for (const [name, item] of Object.entries(value as unknown as Fields)) if (name !== 'template' && name !== 'operator') walk(item);
    }
  };
  walk(root);
  return found;
};
