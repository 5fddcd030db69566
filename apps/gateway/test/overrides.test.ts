/**
 * Overrides, black-box: test-server's `echo` renamed `say` with its `text` fixed reaches the backend
 * with the fixed value over the stdio relay and over HTTP (both revisions), shows its overridden
 * title, description and annotations, takes a profile's override over the server's, and follows the
 * config file as it is edited: a broken edit keeps the last good config, a good one sends list_changed.
 * Two overrides giving one name to two tools are refused at start, both named.
 */
import { writeFile } from 'node:fs/promises';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Tool } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, connectHttp, makeFolder, runCli, startHttpGateway, startStdioGateway } from './harness.js';
import { names, outcome, toolNames, twoServers } from './surface-config.js';

const sayOverride = (description: string, name = 'say'): string => `[servers.alpha.overrides.tools.echo]
name = ${JSON.stringify(name)}
title = "Say"
description = ${JSON.stringify(description)}
annotations = { readOnlyHint = true }
arguments = { text = "fixed" }

[servers.alpha.overrides.prompts.greet]
name = "hello"
description = "Greets someone by name."
`;

const reviewProfile = `[profiles.review.servers.alpha]
tools = ["echo"]

[profiles.review.servers.alpha.overrides.tools.echo]
description = "Says the fixed text, for reviewers."
`;

const config = (description = 'Says the fixed text.', name = 'say'): string =>
  twoServers(`${sayOverride(description, name)}\n${reviewProfile}`);

const toolNamed = async (client: Client, name: string): Promise<Tool> => {
  const tool = (await client.listTools()).tools.find((item) => item.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in tools/list`);
  return tool;
};

/** What every client of the default surface sees of alpha's overridden echo and greet. */
const checkOverridden = async (client: Client): Promise<void> => {
  const tools = await toolNames(client);
  expect(tools).toContain('alpha_say');
  expect(tools).not.toContain('alpha_echo');
  const say = await toolNamed(client, 'alpha_say');
  expect(say).toMatchObject({ title: 'Say', description: 'Says the fixed text.', annotations: { readOnlyHint: true } });
  expect(Object.keys(say.inputSchema.properties ?? {})).not.toContain('text');
  expect(say.inputSchema.required ?? []).not.toContain('text');
  // Whatever the client sends, the backend gets the fixed value.
  expect(await outcome(client, 'alpha_say', { text: 'chosen by the model' })).toBe('fixed');
  expect(await outcome(client, 'alpha_say')).toBe('fixed');
  expect(await outcome(client, 'alpha_echo', { text: 'hi' })).toMatch(/alpha_echo/);
  const prompts = (await client.listPrompts()).prompts;
  expect(names(prompts)).toEqual(['alpha_hello', 'alpha_pid_prompt', 'beta_greet', 'beta_pid_prompt']);
  expect(prompts.find((prompt) => prompt.name === 'alpha_hello')?.description).toBe('Greets someone by name.');
  const greeting = await client.getPrompt({ name: 'alpha_hello', arguments: { name: 'Ada' } });
  expect(JSON.stringify(greeting.messages)).toContain('Hello Ada');
};

afterEach(async () => {
  expect(await cleanup()).toEqual([]);
});

describe('overrides', () => {
  it('injects the fixed argument on the stdio relay, and follows edits of the config file', async () => {
    const gateway = await startStdioGateway({ config: config() });
    const { client } = gateway;
    await checkOverridden(client);

    let changes = 0;
    const changed: (() => void)[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
      for (const resolve of changed.splice(0)) resolve();
    });
    const nextChange = (): Promise<void> => new Promise((resolve) => changed.push(resolve));

    // A broken override (a name no tool may have) keeps the running config and says why.
    await writeFile(gateway.configPath, config('Says the fixed text.', 'not a name!'));
    await gateway.stderr.waitFor(
      /config change ignored; the gateway keeps the last good config[\s\S]*gateway.toml:\d+: \[servers\.alpha\.overrides\.tools\.echo\] name "not a name!"/,
      10_000,
    );
    expect((await toolNamed(client, 'alpha_say')).description).toBe('Says the fixed text.');
    expect(await outcome(client, 'alpha_say', { text: 'x' })).toBe('fixed');
    expect(changes).toBe(0);

    // A good edit of the description reaches the client as a list change.
    const listChanged = nextChange();
    await writeFile(gateway.configPath, config('Says the fixed text, edited.'));
    await listChanged;
    expect((await toolNamed(client, 'alpha_say')).description).toBe('Says the fixed text, edited.');
    expect(await outcome(client, 'alpha_say', { text: 'x' })).toBe('fixed');
  });

  it('injects it over HTTP on both revisions, and lays a profile override over the server one', async () => {
    const gateway = await startHttpGateway({ config: config() });
    await checkOverridden(await connectHttp(gateway.url));
    await checkOverridden(await connectHttp(gateway.url, { era: 'auto' }));

    const review = new Client({ name: 'overrides-e2e', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await review.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url.replace(/\/+$/u, '')}/review`)));
    try {
      expect((await review.listTools()).tools.filter((tool) => tool.name.startsWith('alpha_')).map((tool) => tool.name)).toEqual([
        'alpha_say',
      ]);
      // The profile's description over the server's; the server's title, annotations and fixed argument stay.
      expect(await toolNamed(review, 'alpha_say')).toMatchObject({
        title: 'Say',
        description: 'Says the fixed text, for reviewers.',
        annotations: { readOnlyHint: true },
      });
      expect(await outcome(review, 'alpha_say', { text: 'reviewer' })).toBe('fixed');
    } finally {
      await review.close();
    }
  });

  it('refuses two overrides that give one name to two tools, naming both', async () => {
    const clash = twoServers(`[servers.alpha.overrides.tools.echo]
name = "speak"

[servers.alpha.overrides.tools.add]
name = "speak"
`);
    const dir = await makeFolder({ 'gateway.toml': clash });
    const result = await runCli(['--config', `${dir}/gateway.toml`]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${dir}/gateway.toml:`);
    expect(result.stderr).toMatch(/\[servers\.alpha\.overrides\.tools\.echo\]/);
    expect(result.stderr).toMatch(/\[servers\.alpha\.overrides\.tools\.add\]/);
    expect(result.stderr).toContain('speak');
  });
});
