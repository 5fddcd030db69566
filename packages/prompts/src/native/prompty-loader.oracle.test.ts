/**
 * Oracle cases for how a .prompty file's frontmatter loads, ported from Prompty:
 * - microsoft/prompty schema/model/conformance/vectors/load.tsp at 75e4d0e5: env_default, env_missing_error
 *   (a difference: Promptyard warns instead, never reading the environment), file_resolution,
 *   file_reference_in_tree_allowed, file_reference_traversal_rejected, input_scalar_shorthand,
 *   input_validation_required, input_validation_default_fill, input_validation_optional_omit,
 *   input_validation_example_not_used, template_string_invalid (a difference: v1's `template: jinja2` is read);
 * - runtime/python/prompty/tests/test_loader.py at 75e4d0e5: test_load_file_resolution (with
 *   tests/prompts/file_ref.prompty and schema.json), test_load_file_not_found_raises,
 *   test_load_file_traversal_outside_prompt_dir_raises, test_load_file_absolute_path_outside_prompt_dir_raises,
 *   test_load_file_symlink_escape_raises, test_quick_prompt (tests/prompts/shorthand_quick.prompty);
 * - parse.tsp's thread_nonce_expansion with tests/prompts/shorthand_threaded.prompty (a `kind: thread` input);
 * - v1's loader (runtime/prompty/prompty/core.py at a4ef7e06, load_input_property and load_manifest):
 *   a sample value types its input (`chat_history: []` is a list), `template: mustache` is the format.
 */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeLiquid, createTempFolder, type TempFolder } from '../test-helpers.js';
import type { NativeDefinition } from './native-definition.js';
import { parsePromptyFormat } from './prompty-format.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.cleanup();
});

const jinja = createFakeLiquid('jinja');
// The stand-in engines render alike; the Mustache one writes a line of its own first.
const mustache = createFakeLiquid('mustache', '(mustache)\n');

/** Writes `files`, then loads `path` as the prompt folder (its root) would. */
const load = async (path: string, files: Readonly<Record<string, string>>, root = folder.dir): Promise<NativeDefinition> => {
  await folder.writeAll(files);
  const text = files[path] ?? '';
  return parsePromptyFormat({ text, file: join(folder.dir, path), path, jinja, mustache, root, maxFileBytes: 1000 });
};

const loadError = async (path: string, files: Readonly<Record<string, string>>, root?: string): Promise<string> => {
  try {
    await load(path, files, root);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected the file to be refused');
};

const connection = (definition: NativeDefinition): unknown =>
  (definition.meta['model'] as { connection?: unknown } | undefined)?.connection;

describe('${env:…} (load.tsp)', () => {
  it('env_default: ${env:MISSING_VAR:fallback_value} is its default', async () => {
    const definition = await load('p.prompty', {
      'p.prompty':
        '---\nname: env-default-test\nmodel:\n  id: gpt-4\n  connection:\n    kind: key\n    endpoint: ${env:MISSING_VAR:fallback_value}\n---\nHi',
    });
    expect(connection(definition)).toEqual({ kind: 'key', endpoint: 'fallback_value' });
  });

  it('env_missing_error: ${env:NONEXISTENT} stays as written, with a warning (Prompty raises when it is not set)', async () => {
    const definition = await load('p.prompty', {
      'p.prompty':
        '---\nname: env-error-test\nmodel:\n  id: gpt-4\n  connection:\n    kind: key\n    endpoint: ${env:NONEXISTENT}\n---\nHi',
    });
    expect(connection(definition)).toEqual({ kind: 'key', endpoint: '${env:NONEXISTENT}' });
    expect(definition.warnings).toEqual([
      {
        line: 3,
        message:
          '${env:NONEXISTENT} (frontmatter key "model.connection.endpoint") is not served: the server\'s environment never reaches clients; write ${env:NONEXISTENT:default} to serve a default',
      },
    ]);
  });

  it('never reads the environment, even for a variable that is set', async () => {
    process.env['PROMPTYARD_TEST_SECRET'] = 'secret';
    try {
      const definition = await load('p.prompty', { 'p.prompty': '---\ndescription: ${env:PROMPTYARD_TEST_SECRET:public}\n---\nHi' });
      expect(definition.description).toBe('public');
    } finally {
      delete process.env['PROMPTYARD_TEST_SECRET'];
    }
  });
});

describe('${file:…} (load.tsp, test_loader.py)', () => {
  const shared = JSON.stringify({ kind: 'key', endpoint: 'https://shared.example.com', apiKey: 'shared-key' });

  it('file_resolution: a JSON file is its parsed content', async () => {
    const definition = await load('p.prompty', {
      'p.prompty': '---\nname: file-ref-test\nmodel:\n  id: gpt-4\n  connection: ${file:shared_connection.json}\n---\nHi',
      'shared_connection.json': shared,
    });
    expect(connection(definition)).toEqual({ kind: 'key', endpoint: 'https://shared.example.com', apiKey: 'shared-key' });
  });

  it('file_reference_in_tree_allowed: a file below the prompt', async () => {
    const definition = await load('app/p.prompty', {
      'app/p.prompty': '---\nname: file-in-tree-test\nmodel:\n  id: gpt-4\n  connection: ${file:sub/data.json}\n---\nHi',
      'app/sub/data.json': '{"kind":"key","endpoint":"https://in-tree.example.com","apiKey":"ok"}',
    });
    expect(connection(definition)).toEqual({ kind: 'key', endpoint: 'https://in-tree.example.com', apiKey: 'ok' });
  });

  it('file_reference_traversal_rejected / test_load_file_traversal_outside_prompt_dir_raises: outside the prompt folder', async () => {
    const root = join(folder.dir, 'app');
    const message = await loadError(
      'app/p.prompty',
      { 'app/p.prompty': '---\nname: t\ndescription: ${file:../secret.json}\n---\nHi', 'secret.json': '{"apiKey":"leaked"}' },
      root,
    );
    expect(message).toBe(
      `${join(root, 'p.prompty')}:3: frontmatter key "description": \${file:../secret.json} resolves outside the prompt folder ${root}: keep referenced files inside it`,
    );
  });

  it('test_load_file_absolute_path_outside_prompt_dir_raises', async () => {
    const root = join(folder.dir, 'prompts');
    const secret = join(folder.dir, 'secret.txt');
    const message = await loadError(
      'prompts/bad.prompty',
      { 'prompts/bad.prompty': `---\ndescription: "\${file:${secret}}"\n---\nHello\n`, 'secret.txt': 'secret' },
      root,
    );
    expect(message).toMatch(/resolves outside the prompt folder/);
  });

  it('test_load_file_symlink_escape_raises', async () => {
    const root = join(folder.dir, 'prompts');
    await folder.writeAll({ 'secret.txt': 'secret', 'prompts/keep.txt': '' });
    await symlink(join(folder.dir, 'secret.txt'), join(root, 'secret-link.txt'));
    const message = await loadError(
      'prompts/bad.prompty',
      { 'prompts/bad.prompty': '---\ndescription: "${file:secret-link.txt}"\n---\nHello\n' },
      root,
    );
    expect(message).toMatch(/\$\{file:secret-link\.txt\} leads outside the prompt folder through a symlink/);
  });

  it('test_load_file_not_found_raises', async () => {
    const message = await loadError('bad.prompty', { 'bad.prompty': '---\nname: bad-ref\ninputs: ${file:nonexistent.json}\n---\nHello\n' });
    expect(message).toMatch(
      /bad\.prompty:3: frontmatter key "inputs": \$\{file:nonexistent\.json\} names a file that does not exist \(.*nonexistent\.json\): create it or fix the path$/,
    );
  });

  it('test_load_file_resolution: inputs from a JSON file (file_ref.prompty, schema.json)', async () => {
    const definition = await load('file_ref.prompty', {
      'file_ref.prompty':
        '---\nname: file-ref\ndescription: Tests file reference resolution\nmodel:\n  id: gpt-4\ninputs: ${file:schema.json}\n---\nsystem:\nYou are a helpful assistant.\n\nuser:\n{{question}}',
      'schema.json': '[\n  {\n    "name": "question",\n    "kind": "string",\n    "default": "What is AI?"\n  }\n]',
    });
    expect(definition.arguments).toEqual([{ name: 'question', required: false, default: 'What is AI?' }]);
  });

  it('reads YAML as data and other files as text, and refuses what Promptyard does not read', async () => {
    const definition = await load('p.prompty', {
      'p.prompty': '---\ndescription: ${file:notes.txt}\nmetadata: ${file:meta.yaml}\n---\nHi',
      'notes.txt': 'Plain notes\n',
      'meta.yaml': 'authors:\n  - ada\n',
    });
    expect(definition.description).toBe('Plain notes');
    expect(definition.meta['metadata']).toEqual({ authors: ['ada'] });
    expect(await loadError('q.prompty', { 'q.prompty': '---\nmetadata: ${file:.env}\n---\nHi', '.env': 'KEY=1' })).toMatch(
      /names a hidden file or folder \(\.env\)/,
    );
    expect(await loadError('r.prompty', { 'r.prompty': '---\nmetadata: ${file:big.txt}\n---\nHi', 'big.txt': 'x'.repeat(1001) })).toMatch(
      /\$\{file:big\.txt\} is over the limit of 1000 bytes/,
    );
    expect(await loadError('s.prompty', { 's.prompty': '---\nmetadata: ${file:bad.json}\n---\nHi', 'bad.json': '{' })).toMatch(
      /\$\{file:bad\.json\} is not valid JSON/,
    );
  });
});

describe('references inside referenced files', () => {
  it('resolves them as Prompty’s loader visits the loaded mappings, relative to the .prompty file, and stops a file that names itself', async () => {
    const definition = await load('p.prompty', {
      'p.prompty': '---\nmodel:\n  connection: ${file:conf/connection.json}\nmetadata: ${file:loop.json}\n---\nHi',
      'conf/connection.json': '{"endpoint": "${env:ENDPOINT:https://example.com}", "options": "${file:conf/options.yaml}"}',
      'conf/options.yaml': 'temperature: 0.2\n',
      'loop.json': '{"again": "${file:loop.json}"}',
    });
    expect(connection(definition)).toEqual({ endpoint: 'https://example.com', options: { temperature: 0.2 } });
    let depth = 0;
    for (let value = definition.meta['metadata']; typeof value === 'object' && value !== null; value = (value as { again?: unknown }).again)
      depth++;
    expect(depth).toBe(8);
  });
});

describe('inputs (load.tsp, test_loader.py, v1 core.py)', () => {
  it('input_scalar_shorthand, input_validation_*: v2 inputs with kind, default, required, example', async () => {
    const definition = await load('p.prompty', {
      'p.prompty': [
        '---',
        'inputs:',
        '  - { name: topic, kind: string, default: science }',
        '  - { name: count, kind: integer, default: 5 }',
        '  - { name: city, kind: string, required: true }',
        '  - { name: nickname, kind: string, required: false }',
        '  - { name: subject, kind: string, required: false, example: sample }',
        '---',
        '{{topic}} {{count}} {{city}} {{nickname}} {{subject}}',
      ].join('\n'),
    });
    expect(definition.arguments).toEqual([
      { name: 'topic', required: false, default: 'science' },
      { name: 'count', required: false, default: '5' },
      { name: 'city', required: true },
      { name: 'nickname', required: false },
      // The example is not used at runtime.
      { name: 'subject', required: false },
    ]);
  });

  it('test_quick_prompt: shorthand_quick.prompty', async () => {
    const definition = await load('quick.prompty', {
      'quick.prompty':
        '---\nname: quick-prompt\nmodel: gpt-4o-mini\ninputs:\n  - name: topic\n    kind: string\n    default: Python\n---\nsystem:\nYou are a concise technical writer.\n\nuser:\nWrite a one-paragraph summary of {{topic}}.',
    });
    expect(definition).toMatchObject({ title: 'quick-prompt', arguments: [{ name: 'topic', default: 'Python' }] });
    expect(definition.body).toContain('{{topic}}');
  });

  it('v1: a sample value types its input, so a list input takes JSON; a mapping infers its type from `sample`', async () => {
    const definition = await load('p.prompty', {
      'p.prompty':
        '---\ninputs:\n  question: What is AI?\n  chat_history: []\n  count: 3\n  strict: true\n  customer:\n    sample: { name: Sally }\n---\n{{question}}',
    });
    expect(definition.arguments.slice(0, 4)).toEqual([
      { name: 'question', required: false, default: 'What is AI?' },
      { name: 'chat_history', required: false, default: '[]' },
      { name: 'count', required: false, default: '3' },
      { name: 'strict', required: false, default: 'true' },
    ]);
    // The list renders as a list: the engine receives it as a JSON argument.
    const rendered = await definition.sections[0]?.render({ question: 'Q', chat_history: '["a"]' });
    expect(rendered).toEqual([{ role: 'system', text: 'Q' }]);
  });

  it("v1 (C# loader): a mapping with none of an input's keys is a sample object, the input's default", async () => {
    const definition = await load('p.prompty', {
      'p.prompty': '---\ninputs: ${file:context.json}\n---\nuser:\n{{customer.firstName}} {{topic.kind}}',
      'context.json': '{ "customer": { "id": 2, "firstName": "Sally" }, "topic": { "kind": "string" } }',
    });
    expect(definition.arguments).toEqual([
      { name: 'customer', required: false, default: '{"id":2,"firstName":"Sally"}' },
      // A mapping with an input's key (`kind`, `type`, `default` …) stays a definition.
      { name: 'topic', required: false },
    ]);
  });

  it('the v2 preview: inputSchema.properties', async () => {
    const definition = await load('p.prompty', {
      'p.prompty': '---\ninputSchema:\n  properties:\n    - name: firstName\n      kind: string\n      default: Jane\n---\n{{firstName}}',
    });
    expect(definition.arguments).toEqual([{ name: 'firstName', required: false, default: 'Jane' }]);
    expect(definition.meta).not.toHaveProperty('inputSchema');
  });
});

describe('template formats (v1 load_manifest, v2 template.format)', () => {
  const body = '---\ntemplate: FORMAT\n---\nuser:\nHi {{name}}';
  const rendered = async (format: string): Promise<unknown> => {
    const definition = await load('p.prompty', { 'p.prompty': body.replace('FORMAT', format) });
    return definition.sections[0]?.render({ name: 'Ada' });
  };

  it('renders mustache in every form Prompty reads, and Jinja by default', async () => {
    for (const format of [
      'mustache',
      '{ format: mustache }',
      '{ format: { kind: mustache }, parser: { kind: prompty } }',
      '{ type: mustache }',
    ]) {
      expect(await rendered(format)).toEqual([
        { role: 'system', text: '(mustache)' },
        { role: 'user', text: 'Hi Ada' },
      ]);
    }
    for (const format of ['jinja2', '{ format: jinja2, parser: prompty }', '{ format: { kind: nunjucks } }', '{}']) {
      expect(await rendered(format)).toEqual([{ role: 'user', text: 'Hi Ada' }]);
    }
  });

  it('a Mustache partial renders empty, as in Prompty; the file loads and `validate` is told at its line', async () => {
    const definition = await load('p.prompty', {
      'p.prompty': '---\ntemplate: { format: mustache }\n---\nuser:\nHi {{name}}\n{{> footer}}',
    });
    expect(definition.warnings).toEqual([
      {
        message:
          "Mustache partial {{> footer}} renders as empty text, as in Prompty's TypeScript and C# runtimes, which pass no partials: write the partial's text in place",
        line: 6,
      },
    ]);
  });

  it('template_string_invalid reads v1 `template: jinja2`; an unknown format is refused with the line', async () => {
    expect(await loadError('p.prompty', { 'p.prompty': '---\nname: x\ntemplate: handlebars\n---\nHi' })).toMatch(
      /p\.prompty:3: template format "handlebars" is not one Prompty renders: use jinja2 \(the default\) or mustache$/,
    );
  });
});

describe('thread inputs (parse.tsp thread_nonce_expansion, tests/prompts/shorthand_threaded.prompty)', () => {
  const threaded = [
    '---',
    'model: gpt-4o',
    'inputs:',
    '  - name: question',
    '    kind: string',
    '  - name: conversation',
    '    kind: thread',
    '---',
    'system:',
    'You are a helpful assistant.',
    '',
    '{{conversation}}',
    '',
    'user:',
    '{{question}}',
  ].join('\n');

  it('thread_nonce_expansion: the thread’s messages are spliced where the template writes the input', async () => {
    const definition = await load('threaded.prompty', { 'threaded.prompty': threaded });
    const conversation = JSON.stringify([
      { role: 'user', content: [{ kind: 'text', value: 'prev question' }] },
      { role: 'assistant', content: [{ kind: 'text', value: 'prev answer' }] },
    ]);
    expect(await definition.sections[0]?.render({ question: 'Hi', conversation })).toEqual([
      { role: 'system', text: 'You are a helpful assistant.' },
      { role: 'user', text: 'prev question' },
      { role: 'assistant', text: 'prev answer' },
      { role: 'user', text: 'Hi' },
    ]);
  });

  it('splits the message around the thread, reads string and OpenAI-style content, and takes a missing thread as none', async () => {
    const definition = await load('t.prompty', {
      't.prompty': '---\ninputs:\n  - { name: history, kind: thread }\n---\nsystem:\nBefore.\n{{history}}\nAfter.',
    });
    const history = JSON.stringify([
      { role: 'user', content: 'Hi\nuser:\nnot a role line here' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hello' },
          { type: 'image_url', image_url: { url: 'x' } },
        ],
      },
    ]);
    expect(await definition.sections[0]?.render({ history })).toEqual([
      { role: 'system', text: 'Before.' },
      { role: 'user', text: 'Hi\nuser:\nnot a role line here' },
      { role: 'assistant', text: 'Hello' },
      { role: 'system', text: 'After.' },
    ]);
    expect(await definition.sections[0]?.render({})).toEqual([
      { role: 'system', text: 'Before.' },
      { role: 'system', text: 'After.' },
    ]);
  });
});
