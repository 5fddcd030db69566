import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeFolder, startStdio } from './harness.js';
import { promptFiles } from './fixtures.js';

afterEach(cleanup);

const fallbackEnv = {
  PROMPTYARD_FALLBACK_TOOLS: 'true',
  PROMPTYARD_FALLBACK_RESOURCES: 'true',
  PROMPTYARD_FALLBACK_MAX_OUTPUT_BYTES: '2048',
};

const textOf = (result: { content: unknown }): string => {
  const [first] = result.content as { type: string; text: string }[];
  return first?.text ?? '';
};

describe('a client that never calls prompts/*', () => {
  it('lists, searches and renders prompts through tools, with output capped', async () => {
    const dir = await makeFolder({ ...promptFiles, 'big.md': `---\ndescription: A very long prompt\n---\n${'word '.repeat(2000)}` });
    const { client } = await startStdio(['--prompts', dir, '--no-watch'], { env: fallbackEnv });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list_prompts', 'get_prompt', 'search_prompts']));

    const listed = textOf(await client.callTool({ name: 'list_prompts', arguments: {} }));
    expect(listed).toContain('review(code, language?, focus?) — Review code for bugs and style');
    expect(textOf(await client.callTool({ name: 'list_prompts', arguments: { prefix: 'git/' } })).split('\n')).toHaveLength(3);

    const found = textOf(await client.callTool({ name: 'search_prompts', arguments: { query: 'comit mesage' } }));
    expect(found.split('\n')[0]).toMatch(/^git\/commit\(/);
    expect(textOf(await client.callTool({ name: 'search_prompts', arguments: { query: 'squas' } }))).toMatch(/^git\/deep\/squash/);

    const rendered = await client.callTool({
      name: 'get_prompt',
      arguments: { name: 'review', arguments: { code: 'x = 1', language: 'python' } },
    });
    expect(textOf(rendered)).toContain('Review this python code:\n\nx = 1');
    const missing = await client.callTool({ name: 'get_prompt', arguments: { name: 'review' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/missing required argument "code"/);
    const wrong = await client.callTool({ name: 'get_prompt', arguments: { name: 'review', arguments: { code: ['x'] } } });
    expect(textOf(wrong)).toMatch(/"arguments\.code" must be text/);
    const unknown = await client.callTool({ name: 'get_prompt', arguments: { name: 'reveiw' } });
    expect(textOf(unknown)).toMatch(/Did you mean "review"/);

    const big = textOf(await client.callTool({ name: 'get_prompt', arguments: { name: 'big' } }));
    expect(Buffer.byteLength(big)).toBeLessThanOrEqual(2048);
    expect(big).toMatch(/output cut at 2048 bytes \(\[fallback\] max_output_bytes\)/);
  });

  it('serves prompts as prompt:// resources', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch'], { env: fallbackEnv });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('prompt://git%2Fcommit');
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toContainEqual(expect.objectContaining({ uriTemplate: 'prompt://{name}' }));
    const read = await client.readResource({ uri: 'prompt://review' });
    const [content] = read.contents as { text: string; mimeType: string }[];
    expect(content?.mimeType).toBe('text/markdown');
    expect(content?.text).toContain('- code (required): The code to review');
    expect(content?.text).toContain('Review this {{ language }} code:');
    await expect(client.readResource({ uri: 'prompt://nope' })).rejects.toThrow(/Unknown resource/);
  });

  it('keeps the fallbacks off by default', async () => {
    const dir = await makeFolder(promptFiles);
    const { client } = await startStdio(['--prompts', dir, '--no-watch']);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).not.toContain('prompt://review');
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('get_prompt');
  });
});
