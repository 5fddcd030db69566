import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import type { ConfigSchema, FieldSpec } from './config-fields.js';
import { configJsonSchema } from './json-schema.js';
import type { DocumentedSchema } from './json-schema.js';

const ajv = new Ajv({ allErrors: true });

const validates = (schema: DocumentedSchema, document: unknown): boolean =>
  ajv.validate(configJsonSchema(schema, { title: 'test.toml' }), document);

const loads = (schema: ConfigSchema, document: Record<string, unknown>): boolean => {
  try {
    resolveConfig(schema, document, {});
    return true;
  } catch {
    return false;
  }
};

/** Values of each field type the loader takes or refuses; the schema must agree on every one. */
const samples: readonly (readonly [FieldSpec, readonly unknown[]])[] = [
  [{ type: 'string' }, ['text', '', 1, true, ['a']]],
  [{ type: 'string', enum: ['stdio', 'http'] }, ['stdio', 'http', 'sse', 'HTTP', 1]],
  [{ type: 'integer', min: 1, max: 10 }, [1, 10, 0, 11, 2.5, '5', true, -3]],
  [{ type: 'integer' }, [-5, 0, 1e6, 1.5, 'x']],
  [{ type: 'boolean' }, [true, false, 'true', 0, 1]],
  [{ type: 'duration' }, ['60s', '1.5m', '500ms', '2h', ' 5 s ', '0', 0, '0s', '60', 60, '5d', 's', '-1s', true]],
  [{ type: 'string[]' }, [[], ['a', 'b'], 'a', [1], [['a']]]],
  [{ type: 'record' }, [{}, { a: 'x' }, { a: 1 }, 'a=x', ['x']]],
];

describe('configJsonSchema', () => {
  it('takes and refuses exactly the values the loader does, for every field type', () => {
    for (const [spec, values] of samples) {
      const schema = { section: { key: spec } };
      for (const value of values) {
        const document = { section: { key: value } };
        expect(validates(schema, document), `${spec.type} ${JSON.stringify(value)}`).toBe(loads(schema, document));
      }
    }
  });

  it('refuses unknown sections and keys where the loader does, nested sections included', () => {
    const schema = {
      server: { name: { type: 'string' } },
      'transport.rate_limit': { burst: { type: 'integer', min: 1 } },
      'tools.web_search': { enabled: { type: 'boolean' } },
    } as const satisfies ConfigSchema;
    const documents: readonly Record<string, unknown>[] = [
      { server: { name: 'x' }, transport: { rate_limit: { burst: 2 } }, tools: { web_search: { enabled: true } } },
      {},
      { server: { nmae: 'x' } },
      { servr: {} },
      { transport: { rate_limit: { bust: 2 } } },
      { transport: { host: 'x' } },
      { tools: { perplexity: {} } },
      { tools: { web_search: { enabled: 'yes' } } },
      { name: 'x' },
    ];
    const verdicts = documents.map((document) => [validates(schema, document), loads(schema, document)]);
    expect(verdicts.map(([schemaSays]) => schemaSays)).toEqual([true, true, false, false, false, false, false, false, false]);
    expect(verdicts.map(([, loaderSays]) => loaderSays)).toEqual(verdicts.map(([schemaSays]) => schemaSays));
  });

  it('writes [[arrays]] of tables with their required keys, as the loader reads them', () => {
    const schema = {
      'prompts.git[]': { url: { type: 'string', required: true }, poll: { type: 'duration', default: 60_000 } },
      prompts: { watch: { type: 'boolean', default: true } },
    } as const satisfies ConfigSchema;
    const json = configJsonSchema(schema, { title: 'test.toml' });
    expect(json).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: {
        prompts: {
          properties: {
            watch: { type: 'boolean', default: true },
            git: { type: 'array', items: { required: ['url'], additionalProperties: false, properties: { poll: { default: '1m' } } } },
          },
        },
      },
    });
    for (const document of [
      { prompts: { git: [{ url: 'a' }, { url: 'b', poll: '5m' }] } },
      { prompts: { git: [{ poll: '5m' }] } },
      { prompts: { git: [{ url: 'a', branch: 'main' }] } },
      { prompts: { git: [{ url: 'a', poll: 5 }] } },
    ]) {
      expect(validates(schema, document), JSON.stringify(document)).toBe(loads(schema, document));
    }
  });

  it('describes tables of named tables, with the names they take and the rules given for a section', () => {
    const schema: DocumentedSchema = {
      'servers.<id>': {
        command: { type: 'string', doc: 'Program to launch.' },
        url: { type: 'string' },
        prefix: { type: 'boolean | string', default: true },
      },
      'servers.<id>.overrides.tools.<tool>': {
        annotations: { type: 'table', fields: { readOnlyHint: { type: 'boolean' } } },
        arguments: { type: 'table' },
      },
      'profiles.<name>.servers.<id>.overrides': {
        tools: { type: 'table', entries: { title: { type: 'string' } } },
      },
    };
    const json = configJsonSchema(schema, {
      title: 'gateway.toml',
      names: { id: '^[a-z]+$' },
      refine: { 'servers.<id>': { oneOf: [{ required: ['command'] }, { required: ['url'] }] } },
    });
    expect(json).toMatchObject({
      properties: {
        servers: {
          propertyNames: { pattern: '^[a-z]+$' },
          additionalProperties: { properties: { command: { description: 'Program to launch.' } } },
        },
      },
    });
    const valid = (document: unknown): boolean => ajv.validate(json, document);
    expect(
      valid({ servers: { github: { command: 'gh', prefix: 'gh', overrides: { tools: { search: { arguments: { owner: 'acme' } } } } } } }),
    ).toBe(true);
    expect(valid({ servers: { github: { url: 'https://x', prefix: false } } })).toBe(true);
    expect(valid({ servers: { GitHub: { command: 'gh' } } })).toBe(false);
    expect(valid({ servers: { github: { command: 'gh', url: 'https://x' } } })).toBe(false);
    expect(valid({ servers: { github: {} } })).toBe(false);
    expect(valid({ servers: { github: { command: 'gh', prefix: 1 } } })).toBe(false);
    expect(valid({ servers: { github: { command: 'gh', overrides: { tools: { search: { annotations: { readOnly: true } } } } } } })).toBe(
      false,
    );
    expect(valid({ profiles: { coding: { servers: { github: { overrides: { tools: { search: { title: 'Find' } } } } } } } })).toBe(true);
    expect(valid({ profiles: { coding: { servers: { github: { overrides: { tools: { search: { titel: 'Find' } } } } } } } })).toBe(false);
    expect(valid({ profiles: { coding: { servers: { github: { overrides: { resources: {} } } } } } })).toBe(false);
  });
});
