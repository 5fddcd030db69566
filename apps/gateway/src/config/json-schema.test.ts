import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './gateway-config.js';
import { gatewayJsonSchema, gatewayJsonSchemaText } from './json-schema.js';

const example = fileURLToPath(new URL('../../../../examples/gateway.toml', import.meta.url));
const validate = new Ajv({ allErrors: true }).compile(gatewayJsonSchema());

/** What the schema says of a TOML text: its errors, none when it is valid. */
const schemaErrors = (text: string): string[] => {
  const document: unknown = JSON.parse(JSON.stringify(parse(text)));
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
};

/** The reader's verdict: its message, undefined when the gateway would start with it. */
const loaderError = (text: string, file = '/etc/gw/gateway.toml'): string | undefined => {
  try {
    parseGatewayConfig(text, { file, env: { HOME: '/home/me' } });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

/** The profiles example of docs/teams/profiles.md, uncommented from examples/gateway.toml's. */
const full = `
[gateway]
separator = "_"
startup_wait_ms = 0

[servers.github]
url = "https://api.example.com/mcp"
auth = "oauth"
pinning = "enforce"
protocol = "2025-11-25"
timeout = 5000

[servers.github.oauth]
grant = "client_credentials"
client_id = "gateway"
client_secret = "\${GITHUB_SECRET:-x}"
scopes = ["repo"]

[servers.github.overrides.tools.search_issues]
name = "find_issues"
annotations = { readOnlyHint = true, title = "Find issues" }
arguments = { owner = "acme" }

[servers.local]
command = "node"
args = ["server.js"]
env = { DEBUG = "1" }
transport = "stdio"
prefix = false
inherit_env = false

[servers.local.tools]
allow = ["get_*"]
deny = ["get_secret"]

[servers.legacy]
url = "https://legacy.example.com/sse"
transport = "sse"
prefix = "old"
enabled = false

[profiles.coding]
description = "Issues and local tools"

[profiles.coding.servers.github]
tools = ["find_issues"]
prompts = []

[profiles.coding.servers.github.overrides.tools.search_issues]
description = "Search the issues of acme."

[[policy]]
effect = "deny"
groups = ["contractors"]
servers = ["local"]
`;

describe('the gateway.toml JSON Schema', () => {
  it('is the one shipped in schema/ (run this test with --update to rewrite it after changing the config)', async () => {
    await expect(gatewayJsonSchemaText()).toMatchFileSnapshot('../../schema/gateway.schema.json');
  });

  it('takes the example config, which names it for editors, and its commented-out profile', async () => {
    const text = await readFile(example, 'utf8');
    expect(text.split('\n')[0]).toBe('#:schema ../apps/gateway/schema/gateway.schema.json');
    expect(schemaErrors(text)).toEqual([]);
    expect(loaderError(text, example)).toBeUndefined();
    const withProfile = text.replace(/^# (\[profiles|description|tools|prompts|resources)/gm, '$1').replace(/^#$/gm, '');
    expect(withProfile).toContain('\n[profiles.demo.servers.everything]\n');
    expect(schemaErrors(withProfile)).toEqual([]);
    expect(loaderError(withProfile, example)).toBeUndefined();
  });

  it('takes servers, overrides, profiles and policies of every kind', () => {
    expect(schemaErrors(full)).toEqual([]);
    expect(loaderError(full)).toBeUndefined();
  });

  it.each([
    ['an unknown section', '[gatway]\nname = "x"\n', /unknown section \[gatway\]/, /must NOT have additional properties/],
    ['an unknown key', '[gateway]\nseprator = "-"\n', /unknown key "seprator"/, /must NOT have additional properties/],
    ['an unknown server key', '[servers.a]\ncommand = "x"\ntype = "stdio"\n', /unknown key "type"/, /additional properties/],
    [
      'a wrong type',
      '[servers.a]\ncommand = "x"\nargs = "--stdio"\n',
      /args must be a list of strings/,
      /\/servers\/a\/args must be array/,
    ],
    ['a wrong type in a section', '[timeouts]\ntool_ms = "5m"\n', /tool_ms must be an integer/, /\/timeouts\/tool_ms must be integer/],
    ['a server with neither command nor url', '[servers.a]\nenabled = false\n', /has neither command nor url/, /must match exactly one/],
    ['a server with both command and url', '[servers.a]\ncommand = "x"\nurl = "https://x"\n', /has both command and url/, /exactly one/],
    [
      'a server id that cannot be a prefix',
      '[servers."my server"]\ncommand = "x"\n',
      /cannot be used as a name prefix/,
      /property name must be valid/,
    ],
    ['an unknown transport', '[servers.a]\nurl = "https://x"\ntransport = "websocket"\n', /transport must be/, /allowed values/],
    [
      'an unknown filter key',
      '[servers.a]\ncommand = "x"\n[servers.a.tools]\nallows = ["x"]\n',
      /unknown key "allows"/,
      /additional properties/,
    ],
    [
      'an unknown annotation',
      '[servers.a]\ncommand = "x"\n[servers.a.overrides.tools.t]\nannotations = { readOnly = true }\n',
      /unknown annotation "readOnly"/,
      /additional properties/,
    ],
    [
      'an unknown oauth key',
      '[servers.a]\nurl = "https://x"\nauth = "oauth"\n[servers.a.oauth]\nscope = ["x"]\n',
      /unknown key "scope"/,
      /additional/,
    ],
    ['a profile name with capitals', '[servers.a]\ncommand = "x"\n[profiles.Coding]\n', /profile/i, /property name must be valid/],
    [
      'an unknown profile key',
      '[servers.a]\ncommand = "x"\n[profiles.coding.servers.a]\ntool = ["x"]\n',
      /unknown key "tool"/,
      /additional properties/,
    ],
  ])('refuses %s, as the reader does', (_, text, loaderSays, schemaSays) => {
    expect(loaderError(text)).toMatch(loaderSays);
    expect(schemaErrors(text).join('\n')).toMatch(schemaSays);
  });
});
