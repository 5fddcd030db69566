import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer } from '../../../test-support/oidc-provider.js';
import type { TestIssuer } from '../../../test-support/oidc-provider.js';
import { promptFiles } from './fixtures.js';
import { cleanup, connectHttp, makeFolder, startHttp } from './harness.js';
import type { HttpServer } from './harness.js';

/**
 * `[[policy]]` against the built binary and a real OpenID provider: two machine accounts in different
 * groups see different lists, and a call outside a caller's policy is refused and audited.
 */
let issuer: TestIssuer;
let resources: string[] = [];
beforeAll(async () => {
  issuer = await startTestIssuer({ resources: () => resources, members: { designer: ['design'], operator: ['platform', 'oncall'] } });
});
afterAll(() => issuer.close());
afterEach(cleanup);

const policy = `
[prompts]
folders = ["prompts"]

[fallback]
tools = true

[[policy]]
name = "design"
groups = ["design"]
prompts = ["review", "git/*"]
tools = ["list_prompts"]

[[policy]]
name = "platform"
groups = ["platform"]
prompts = ["*"]
tools = ["*"]

[[policy]]
name = "no rendering on call"
effect = "deny"
groups = ["oncall"]
tools = ["get_prompt"]
`;

const start = async (): Promise<HttpServer> => {
  const dir = await makeFolder({});
  await makeFolder(promptFiles).then((prompts) =>
    writeFile(join(dir, 'promptyard.toml'), policy.replace('"prompts"', JSON.stringify(prompts))),
  );
  const server = await startHttp(['--config', join(dir, 'promptyard.toml')], {
    // A key lists web_search, which a rule below shows; the fake key is never used.
    env: { PROMPTYARD_AUTH_ISSUER: issuer.issuer, PROMPTYARD_AUTH_REQUIRED_SCOPES: 'mcp', SERPER_API_KEY: 'unused-serper-key' },
  });
  resources = [server.url];
  return server;
};

const names = (items: readonly { readonly name: string }[]): string[] => items.map((item) => item.name).sort();

describe('promptyard-server [[policy]]', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`shows each caller the prompts and tools its groups allow (${era})`, async () => {
      const server = await start();
      const designer = await connectHttp(server.url, { era, token: await issuer.token({ clientId: 'designer' }) });
      const operator = await connectHttp(server.url, { era, token: await issuer.token({ clientId: 'operator' }) });
      expect(names((await designer.listPrompts()).prompts)).toEqual(['git/commit', 'git/deep/squash', 'review']);
      expect(names((await designer.listTools()).tools)).toEqual(['list_prompts']);
      const everything = names((await operator.listPrompts()).prompts);
      expect(everything).toEqual(expect.arrayContaining(['git/commit', 'plan', 'review']));
      expect(everything.length).toBeGreaterThan(3);
      // Every tool but get_prompt, which the oncall deny rule hides whatever the platform rule allows.
      const tools = names((await operator.listTools()).tools);
      expect(tools).toEqual(expect.arrayContaining(['list_prompts', 'search_prompts', 'web_search']));
      expect(tools).not.toContain('get_prompt');
    });
  }

  it("refuses a call outside the caller's policy as it refuses an unknown name, and audits each decision", async () => {
    const server = await start();
    const designer = await connectHttp(server.url, { token: await issuer.token({ clientId: 'designer' }) });
    const refusal = 'No prompt "plan" is available to you: it does not exist, or the server\'s [[policy]] does not allow it for you.';
    await expect(designer.getPrompt({ name: 'plan', arguments: {} })).rejects.toThrow(refusal);
    // A prompt that does not exist gets the same words: a refusal does not tell that "plan" exists.
    await expect(designer.getPrompt({ name: 'no-such-prompt', arguments: {} })).rejects.toThrow(
      'No prompt "no-such-prompt" is available to you',
    );
    await expect(designer.callTool({ name: 'search_prompts', arguments: { query: 'x' } })).rejects.toThrow(
      'No tool "search_prompts" is available to you',
    );
    const allowed = await designer.getPrompt({ name: 'review', arguments: { code: 'x = 1' } });
    expect(JSON.stringify(allowed.messages)).toContain('x = 1');
    await server.stderr.waitFor(
      /\[promptyard:audit\] access denied subject=designer client=designer kind=prompt name=plan reason="no \[\[policy\]\] rule allows it"/,
    );
    await server.stderr.waitFor(/access denied subject=designer client=designer kind=tool name=search_prompts/);
    await server.stderr.waitFor(
      /access allowed subject=designer client=designer kind=prompt name=review reason="allowed by \[\[policy\]\] #1 \\"design\\""/,
    );

    // A deny rule wins over the allow of another rule.
    const operator = await connectHttp(server.url, { token: await issuer.token({ clientId: 'operator' }) });
    await expect(operator.callTool({ name: 'get_prompt', arguments: { name: 'plan' } })).rejects.toThrow(
      'No tool "get_prompt" is available to you',
    );
    await server.stderr.waitFor(
      /access denied subject=operator client=operator kind=tool name=get_prompt reason="denied by \[\[policy\]\] #3 \\"no rendering on call\\""/,
    );
  });

  it('marks per-caller lists private on 2026-07-28', async () => {
    const server = await start();
    const token = await issuer.token({ clientId: 'designer' });
    const modern = await connectHttp(server.url, { era: 'modern', token });
    // The client reads what the server sent; the list's cache scope is the caller's alone.
    const listed = (await modern.listPrompts()) as { cacheScope?: string };
    expect(listed.cacheScope).toBe('private');
    const tools = (await modern.listTools()) as { cacheScope?: string };
    expect(tools.cacheScope).toBe('private');
  });
});
