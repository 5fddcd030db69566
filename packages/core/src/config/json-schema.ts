import { DURATION_PATTERN } from './config-fields.js';
import type { FieldSpec } from './config-fields.js';

/**
 * JSON Schema of a TOML config file, made from the same section and field specs the loader checks, so
 * an editor completes and refuses keys as the loader would; unknown keys are refused wherever the
 * loader refuses them. Draft-07, the newest Taplo (and so Even Better TOML, Zed, Neovim) validates
 * with, keeping to draft-04 keywords where its completion reads them.
 */

export type JsonSchema = { readonly [keyword: string]: unknown };

/** Fields of a table whose keys an app checks with code of its own (`[servers.<id>]`): their shape, for the schema and the docs. */
export type DocumentedSection = Readonly<Record<string, DocumentedFieldSpec>>;

/**
 * A field spec, or the shape of a field an app reads itself: a table (with known keys, or of named
 * tables with known keys, or of anything), or a value that is true, false or a string.
 */
export type DocumentedFieldSpec =
  | FieldSpec
  | {
      readonly type: 'table';
      readonly doc?: string;
      /** The table's own keys; any others are refused. */
      readonly fields?: DocumentedSection;
      /** A table of names to tables with these keys (`[….tools.<tool>]`). */
      readonly entries?: DocumentedSection;
    }
  | { readonly type: 'boolean | string'; readonly default?: boolean | string; readonly doc?: string };

/**
 * Section names as the loader's schemas write them: dotted for nested tables (`transport.rate_limit`),
 * `name[]` for an array of tables (`[[name]]`), and `<placeholder>` for a table of named tables
 * (`servers.<id>`).
 */
export type DocumentedSchema = Readonly<Record<string, DocumentedSection>>;

export interface ConfigJsonSchemaOptions {
  readonly title: string;
  readonly description?: string;
  /** Patterns the names of `<placeholder>` tables match, by placeholder: `{ id: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' }`. */
  readonly names?: Readonly<Record<string, string>>;
  /** Keywords added to one section's schema, for rules between its keys (`servers.<id>`: command or url). */
  readonly refine?: Readonly<Record<string, JsonSchema>>;
}

/** `60000` → `"1m"`: a default the way the file writes it. */
const durationText = (ms: number): number | string => {
  if (ms === 0) return 0;
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
};

const described = (doc: string | undefined): JsonSchema => (doc === undefined ? {} : { description: doc });

const closedObject = (fields: DocumentedSection): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(fields).map(([key, spec]) => [key, fieldSchema(spec)])),
  additionalProperties: false,
});

/** One value's schema; defaults as the file would write them. */
const valueSchema = (spec: DocumentedFieldSpec): JsonSchema => {
  switch (spec.type) {
    case 'string':
      return { type: 'string', ...(spec.enum === undefined ? {} : { enum: [...spec.enum] }) };
    case 'integer':
      return {
        type: 'integer',
        ...(spec.min === undefined ? {} : { minimum: spec.min }),
        ...(spec.max === undefined ? {} : { maximum: spec.max }),
      };
    case 'duration':
      // `min` holds for non-zero durations only, which a pattern cannot say; the loader checks it.
      return {
        anyOf: [
          { type: 'string', pattern: `^\\s*(?:0|${DURATION_PATTERN})\\s*$` },
          { type: 'integer', enum: [0] },
        ],
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'string[]':
      return { type: 'array', items: { type: 'string' } };
    case 'record':
      return { type: 'object', additionalProperties: { type: 'string' } };
    case 'boolean | string':
      return { anyOf: [{ type: 'boolean' }, { type: 'string' }] };
    case 'table':
      if (spec.fields !== undefined) return closedObject(spec.fields);
      if (spec.entries !== undefined) return { type: 'object', additionalProperties: closedObject(spec.entries) };
      return { type: 'object' };
  }
};

const fieldSchema = (spec: DocumentedFieldSpec): JsonSchema => {
  const given = spec.type === 'table' ? undefined : spec.default;
  const fileDefault = spec.type === 'duration' && spec.default !== undefined ? durationText(spec.default) : given;
  return { ...described(spec.doc), ...valueSchema(spec), ...(fileDefault === undefined ? {} : { default: fileDefault }) };
};

/** The sections as a tree of tables: each node's own fields and its child tables. */
interface TableNode {
  fields: DocumentedSection;
  array: boolean;
  /** The section's name in the loader's schema, if it is one (for `refine`). */
  section?: string;
  readonly children: Map<string, TableNode>;
}

const emptyNode = (): TableNode => ({ fields: {}, array: false, children: new Map() });

const treeOf = (schema: DocumentedSchema): TableNode => {
  const root = emptyNode();
  for (const [section, fields] of Object.entries(schema)) {
    const array = section.endsWith('[]');
    const name = array ? section.slice(0, -2) : section;
    let node = root;
    for (const part of name.split('.')) {
      const child = node.children.get(part) ?? emptyNode();
      node.children.set(part, child);
      node = child;
    }
    Object.assign(node, { fields, array, section });
  }
  return root;
};

const placeholder = /^<(.+)>$/;

const tableSchema = (node: TableNode, options: ConfigJsonSchemaOptions): JsonSchema => {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, spec] of Object.entries(node.fields)) properties[key] = fieldSchema(spec);
  let named: JsonSchema | undefined;
  for (const [name, child] of node.children) {
    const wildcard = placeholder.exec(name)?.[1];
    const schema = child.array ? { type: 'array', items: tableSchema(child, options) } : tableSchema(child, options);
    if (wildcard === undefined) properties[name] = schema;
    else {
      const pattern = options.names?.[wildcard];
      named = { additionalProperties: schema, ...(pattern === undefined ? {} : { propertyNames: { pattern } }) };
    }
  }
  // Required keys are checked in `[[name]]` entries only (`readTable`).
  const required = node.array
    ? Object.entries(node.fields).flatMap(([key, spec]) => (spec.type === 'string' && spec.required === true ? [key] : []))
    : [];
  return {
    type: 'object',
    properties,
    ...(required.length === 0 ? {} : { required }),
    ...(named ?? { additionalProperties: false }),
    ...(node.section === undefined ? {} : options.refine?.[node.section]),
  };
};

/** The JSON Schema of a config file whose sections `schema` declares. */
export const configJsonSchema = (schema: DocumentedSchema, options: ConfigJsonSchemaOptions): JsonSchema => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: options.title,
  ...described(options.description),
  ...tableSchema(treeOf(schema), options),
});
