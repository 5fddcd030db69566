import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServerConfig } from './config.js';
import { serverJsonSchema, serverJsonSchemaText } from './config-schema.js';

const example = fileURLToPath(new URL('../../../examples/promptyard.toml', import.meta.url));
const validate = new Ajv({ allErrors: true }).compile(serverJsonSchema());

/** What the schema says of a TOML text: its errors, none when it is valid. */
const schemaErrors = (text: string): string[] => {
  // Through JSON, as an editor sees the document (TOML dates become strings).
  const document: unknown = JSON.parse(JSON.stringify(parse(text)));
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
};

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'promptyard-schema-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** The loader's verdict on a TOML text: its message, undefined when the server would start with it. */
const loaderError = async (text: string): Promise<string | undefined> => {
  const file = join(folder, 'promptyard.toml');
  await writeFile(file, text);
  try {
    await resolveServerConfig({ file, env: {}, cwd: folder, overrides: {} });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('the promptyard.toml JSON Schema', () => {
  it('is the one shipped in schema/ (run this test with --update to rewrite it after changing the config)', async () => {
    await expect(serverJsonSchemaText()).toMatchFileSnapshot('../schema/promptyard.schema.json');
  });

  it('takes the example config, which names it for editors', async () => {
    const text = await readFile(example, 'utf8');
    expect(text.split('\n')[0]).toBe('#:schema ../apps/server/schema/promptyard.schema.json');
    expect(schemaErrors(text)).toEqual([]);
    expect(await loaderError(text)).toBeUndefined();
  });

  it('takes a config using every kind of section and value', async () => {
    const text = [
      '[server]\nlog_level = "debug"',
      '[transport.rate_limit]\nburst = 5\ntrusted_proxies = ["10.0.0.1"]',
      '[[prompts.git]]\nurl = "https://example.com/prompts.git"\npoll = "5m"',
      '[[prompts.git]]\nurl = "https://example.com/more.git"\npoll = 0',
      '[resources.doc.libraries]\nhono = "https://hono.dev/llms.txt"',
      '[[providers]]\npackage = "@acme/notes"\noptions = { root = "notes" }',
      '[tools.perplexity_summary_search]\nmodel = "sonar-pro"',
    ].join('\n\n');
    expect(schemaErrors(text)).toEqual([]);
    expect(await loaderError(text)).toBeUndefined();
  });

  it.each([
    ['an unknown key', '[server]\nlog_levle = "debug"\n', /unknown key "log_levle"/, /must NOT have additional properties/],
    ['an unknown section', '[servr]\nname = "x"\n', /unknown section \[servr\]/, /must NOT have additional properties/],
    ['an unknown nested section', '[tools.web_serch]\nenabled = true\n', /unknown section \[tools\.web_serch\]/, /additional properties/],
    ['a wrong type', '[transport]\nport = "3000"\n', /port must be an integer/, /\/transport\/port must be integer/],
    ['a value out of range', '[transport]\nport = 70000\n', /port must be an integer from 0 to 65535/, /must be <= 65535/],
    ['a value not in the enum', '[resources.url]\nmode = "remote"\n', /mode must be one of/, /must be equal to one of the allowed values/],
    ['a duration without a unit', '[[prompts.git]]\nurl = "x"\npoll = "60"\n', /poll must be a duration/, /\/prompts\/git\/0\/poll/],
    [
      'an entry without its required key',
      '[[skills.git]]\nref = "main"\n',
      /\[\[skills\.git\]\] needs url/,
      /must have required property 'url'/,
    ],
    ['a single table for an array of tables', '[policy]\neffect = "deny"\n', /unknown section \[policy\]/, /\/policy must be array/],
  ])('refuses %s, as the loader does', async (_, text, loaderSays, schemaSays) => {
    expect(await loaderError(text)).toMatch(loaderSays);
    expect(schemaErrors(text).join('\n')).toMatch(schemaSays);
  });
});
