import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs, createFakeLiquid, createTempFolder, type TempFolder } from '../test-helpers.js';
import { createNativePromptSource } from './native-prompt-source.js';

let folder: TempFolder;
beforeEach(async () => {
  folder = await createTempFolder();
});
afterEach(async () => {
  await folder.cleanup();
});

describe('Prompty files in a project (the native source), as `validate` inspects them', () => {
  it('renders Mustache files with the mustache engine, resolves file references inside the root, and warns of env references', async () => {
    await folder.writeAll({
      'prompts/m.prompty':
        '---\ntemplate: mustache\ninputs: ${file:../shared/inputs.json}\nmodel:\n  key: ${env:KEY}\n---\nuser:\n{{name}}',
      'shared/inputs.json': '[{ "name": "name", "kind": "string", "default": "Ada" }]',
      'prompts/bad.prompty': '---\ndescription: ${file:../../outside.txt}\n---\nHi',
    });
    const source = createNativePromptSource({
      format: 'prompty',
      dir: folder.dir,
      jinja: createFakeLiquid('jinja'),
      mustache: createFakeLiquid('mustache', '(mustache)\n'),
      logger: captureLogs().logger,
    });
    const { entries, problems } = await source.inspect();
    expect(entries.map((entry) => [entry.name, entry.arguments])).toEqual([
      ['prompts/m', [{ name: 'name', required: false, default: 'Ada' }]],
    ]);
    expect((await entries[0]?.render({ name: 'Bo' }))?.messages.map((message) => message.content)).toEqual([
      { type: 'text', text: '(mustache)' },
      { type: 'text', text: 'Bo' },
    ]);
    expect(problems).toEqual([
      {
        file: `${folder.dir}/prompts/bad.prompty`,
        line: 2,
        severity: 'error',
        code: 'invalid-file',
        message: `frontmatter key "description": \${file:../../outside.txt} resolves outside the prompt folder ${folder.dir}: keep referenced files inside it`,
      },
      {
        file: `${folder.dir}/prompts/m.prompty`,
        line: 4,
        severity: 'warning',
        code: 'format-warning',
        message: `\${env:KEY} (frontmatter key "model.key") is not served: the server's environment never reaches clients; write \${env:KEY:default} to serve a default`,
      },
    ]);
  });
});
