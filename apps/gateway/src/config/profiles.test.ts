import { describe, expect, it } from 'vitest';
import { PromptyardError } from '@promptyard/core';
import { compileGlobList } from '@promptyard/router';
import { parseGatewayConfig, routerConfigOf } from './gateway-config.js';
import { resolveProfile } from './profiles.js';

const parse = (text: string) => parseGatewayConfig(text, { file: '/etc/gw/gateway.toml', env: {} });

/** The lines of the CONFIG_INVALID error `text` gives, without the heading. */
const problems = (text: string): string[] => {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PromptyardError);
    expect((error as PromptyardError).code).toBe('CONFIG_INVALID');
    return (error as Error).message
      .split('\n')
      .slice(1)
      .map((line) => line.trim().replace(/^\/etc\/gw\//, ''));
  }
  throw new Error('expected a CONFIG_INVALID error');
};

const servers = `[servers.github]
command = "github-mcp"

[servers.jira]
url = "https://jira.example.com/mcp"
`;

describe('profiles and overrides', () => {
  it('reads a full profile and override config into the RouterConfig', () => {
    const config = parse(`[servers.github]
command = "github-mcp"
pinning = "enforce"

[servers.github.overrides.tools.search_issues]
name = "find_issues"
title = "Find issues"
description = "Search issues in acme repositories only."
annotations = { readOnlyHint = true }
arguments = { owner = "acme", limit = 20 }

[servers.github.overrides.prompts.summarize]
name = "summary"
description = "Summarize a pull request."

[servers.jira]
url = "https://jira.example.com/mcp"
pinning = "off"

[profiles.coding]
description = "The coding agent's tools"

[profiles.coding.servers.github]
tools = ["{get,list,search}_*", "!get_secret*"]
prompts = ["*"]
resources = []

[profiles.coding.servers.github.overrides.tools.search_issues]
description = "Search issues."

[profiles.coding.servers.jira]

[profiles.support-bot.servers.jira]
tools = ["get_*"]
`);
    const router = routerConfigOf(config);
    expect(router.servers.map(({ id, pinning }) => ({ id, pinning }))).toEqual([
      { id: 'github', pinning: 'enforce' },
      { id: 'jira', pinning: 'off' },
    ]);
    expect(router.servers[0]?.overrides).toEqual({
      tools: {
        search_issues: {
          name: 'find_issues',
          title: 'Find issues',
          description: 'Search issues in acme repositories only.',
          annotations: { readOnlyHint: true },
          arguments: { owner: 'acme', limit: 20 },
        },
      },
      prompts: { summarize: { name: 'summary', description: 'Summarize a pull request.' } },
    });
    expect(router.profiles).toEqual([
      {
        name: 'coding',
        description: "The coding agent's tools",
        servers: [
          {
            server: 'github',
            tools: ['{get,list,search}_*', '!get_secret*'],
            prompts: ['*'],
            resources: [],
            overrides: { tools: { search_issues: { description: 'Search issues.' } }, prompts: {} },
          },
          { server: 'jira', tools: ['*'], prompts: ['*'], resources: ['*'], overrides: { tools: {}, prompts: {} } },
        ],
      },
      {
        name: 'support-bot',
        servers: [{ server: 'jira', tools: ['get_*'], prompts: ['*'], resources: ['*'], overrides: { tools: {}, prompts: {} } }],
      },
    ]);
  });

  it('accepts a disabled server in a profile', () => {
    const config = parse(`${servers}enabled = false\n[profiles.p.servers.jira]\n`);
    expect(config.profiles[0]?.servers.map((entry) => entry.server)).toEqual(['jira']);
  });

  it('takes brace and negated globs as real globs, in server filters too', () => {
    const config = parse(`${servers}[servers.jira.tools]\ndeny = ["{echo,get-env}"]\nallow = ["!secret_*", "[gl]et_*"]\n`);
    const tools = config.servers[1]?.tools ?? { allow: [], deny: [] };
    expect(tools).toEqual({ allow: ['!secret_*', '[gl]et_*'], deny: ['{echo,get-env}'] });
    const names = ['echo', 'get-env', 'get_issue', 'let_go', 'secret_get', 'put_x'];
    expect(names.filter(compileGlobList(tools.deny))).toEqual(['echo', 'get-env']);
    expect(names.filter(compileGlobList(tools.allow))).toEqual(['get_issue', 'let_go']);
  });

  it('refuses bad profile names, the reserved default, empty profiles and unknown servers, each with its line', () => {
    expect(
      problems(`${servers}
[profiles.Coding.servers.github]

[profiles.default.servers.github]

[profiles.empty]
description = "nothing yet"

[profiles.ops.servers.githib]
`),
    ).toEqual([
      'gateway.toml:7: profile name "Coding" must be lower-case letters, digits, "_" and "-", starting with a letter or digit (it is served at /mcp/<name>)',
      'gateway.toml:9: [profiles.default]: "default" is the whole gateway (the plain endpoint, and stdio without --profile) and cannot be configured: choose another name',
      'gateway.toml:11: [profiles.empty] names no server: add a [profiles.empty.servers.<id>] table for each server it shows',
      'gateway.toml:14: [profiles.ops.servers.githib] names the unknown server "githib" (did you mean "github"?); servers: github, jira',
    ]);
  });

  it('refuses unknown keys in profiles, their servers, overrides and [audit], listing the known ones', () => {
    expect(
      problems(`${servers}
[servers.github.overrides]
tool = {}

[servers.github.overrides.prompts.p]
annotations = { readOnlyHint = true }

[profiles.p]
descripton = "x"

[profiles.p.servers.jira]
tool = ["*"]

[audit]
path = "audit.jsonl"
`),
    ).toEqual([
      'gateway.toml:20: unknown key "path" in [audit]; allowed keys: file',
      'gateway.toml:8: unknown key "tool" in [servers.github.overrides] (did you mean "tools"?); allowed keys: tools, prompts',
      'gateway.toml:11: unknown key "annotations" in [servers.github.overrides.prompts.p]; allowed keys: name, title, description',
      'gateway.toml:14: unknown key "descripton" in [profiles.p] (did you mean "description"?); allowed keys: description, servers',
      'gateway.toml:17: unknown key "tool" in [profiles.p.servers.jira] (did you mean "tools"?); allowed keys: tools, prompts, resources, overrides',
    ]);
  });

  it('refuses globs that do not parse or cannot match, in servers, profiles and [[policy]], with their lines', () => {
    expect(
      problems(`${servers}
[servers.github.tools]
deny = ["{echo,get-env"]

[profiles.p.servers.github]
tools = ["get issue"]
resources = ["doc://[]"]

[[policy]]
tools = ["*"]

[[policy]]
name = "ci"
groups = ["Platform Team"]
tools = ["github_{}"]
profiles = ["{ops"]
`),
    ).toEqual([
      'gateway.toml:8: server "github": tools.deny: "{echo,get-env" does not parse: "{" is not matched (escape it as "\\{" to mean the character)',
      'gateway.toml:11: [profiles.p.servers.github] tools: "get issue" cannot match a name: names hold no spaces',
      'gateway.toml:12: [profiles.p.servers.github] resources: "doc://[]" cannot match: it holds an empty {} or []',
      'gateway.toml:20: [[policy]] #2 "ci" tools: "github_{}" cannot match: it holds an empty {} or []',
      'gateway.toml:21: [[policy]] #2 "ci" profiles: "{ops" does not parse: "{" is not matched (escape it as "\\{" to mean the character)',
    ]);
  });

  it('checks override names, annotations, arguments and pinning', () => {
    expect(
      problems(`${servers}pinning = "strict"

[servers.github.overrides.tools.a]
name = "find issues"
annotations = { readOnlyHint = "yes", readonly = true }
arguments = "owner=acme"
`),
    ).toEqual([
      'gateway.toml:9: [servers.github.overrides.tools.a] name "find issues" must be letters, digits, "_", "-" or "." (names allow no others)',
      'gateway.toml:10: [servers.github.overrides.tools.a] annotations.readOnlyHint must be true or false, got "yes"',
      'gateway.toml:10: [servers.github.overrides.tools.a] annotations: unknown annotation "readonly" (did you mean "readOnlyHint"?); MCP tool annotations: title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint',
      'gateway.toml:11: [servers.github.overrides.tools.a] arguments must be a table of argument names to fixed values such as { owner = "acme" }, got "owner=acme"',
      'gateway.toml:6: server "jira": pinning must be "off", "warn" or "enforce" ("warn" when absent), got "strict"',
    ]);
  });

  it('refuses renames that give two tools one name, naming both sources, on a server and in a profile', () => {
    expect(
      problems(`${servers}
[servers.github.overrides.tools.a]
name = "x"
[servers.github.overrides.tools.b]
name = "x"
[servers.github.overrides.tools.c]
name = "d"
[servers.github.overrides.tools.d]
name = "e"

[servers.jira.overrides.prompts.p]
name = "q"

[profiles.p.servers.jira.overrides.prompts.r]
name = "q"
`),
    ).toEqual([
      'gateway.toml:10: [servers.github.overrides.tools.a] and [servers.github.overrides.tools.b] both give the name "x": rename one',
      'gateway.toml:12: [servers.github.overrides.tools.c] renames to "d", the server\'s own name of the tool [servers.github.overrides.tools.d] overrides: a call to "d" could mean either, so choose another name',
      'gateway.toml:20: [servers.jira.overrides.prompts.p] and [profiles.p.servers.jira.overrides.prompts.r] both give the name "q": rename one',
    ]);
  });

  it('sets [audit] file "-" for stderr, and resolves pins_file against the config folder', () => {
    const config = parse(`[audit]\nfile = "-"\n[gateway]\npins_file = "pins.json"\n`);
    expect(config.audit).toEqual({ file: '-' });
    expect(config.pinsFile).toBe('/etc/gw/pins.json');
    expect(parse('').audit).toBeUndefined();
    expect(parse('').pinsFile).toBeUndefined();
  });
});

describe('resolveProfile', () => {
  const config = parse(`${servers}[profiles.coding.servers.github]\n[profiles.support.servers.jira]\n`);

  it('finds a profile by name; none or "default" is everything', () => {
    expect(resolveProfile(config, 'coding')?.servers[0]?.server).toBe('github');
    expect(resolveProfile(config, undefined)).toBeUndefined();
    expect(resolveProfile(config, 'default')).toBeUndefined();
  });

  it('refuses an unknown profile with the known ones and a suggestion', () => {
    expect(() => resolveProfile(config, 'codng')).toThrow(
      'Unknown profile "codng" (did you mean "coding"?); profiles: "default", "coding" and "support"',
    );
    expect(() => resolveProfile(parse(servers), 'coding')).toThrow(/the config has no \[profiles.<name>\] tables/);
  });
});

describe('pinning and overrides in a client JSON config', () => {
  it('reads them from a server entry, and reports a bad one at its line', () => {
    const json = (name: string) => `{
  "mcpServers": {
    "github": {
      "command": "github-mcp",
      "pinning": "enforce",
      "overrides": { "tools": { "search_issues": { "name": "${name}" } } }
    }
  }
}`;
    const config = parseGatewayConfig(json('find_issues'), { file: '/etc/gw/claude.json', env: {} });
    expect(config.servers[0]).toMatchObject({ pinning: 'enforce', overrides: { tools: { search_issues: { name: 'find_issues' } } } });
    expect(config.profiles).toEqual([]);
    expect(() => parseGatewayConfig(json('find issues'), { file: '/etc/gw/claude.json', env: {} })).toThrow(
      /claude\.json:6: \[servers\.github\.overrides\.tools\.search_issues\] name "find issues" must be letters/,
    );
  });
});
