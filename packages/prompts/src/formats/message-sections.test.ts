import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parsePromptFile } from './parse-prompt-file.js';
import { createTempFolder, testEngines, type TempFolder } from '../test-helpers.js';

let folder: TempFolder;

beforeEach(async () => {
  folder = await createTempFolder();
});

afterEach(async () => {
  await folder.cleanup();
});

describe('the native multi-message convention', () => {
  it('splits at <!-- message: … --> lines outside fences and embeds <!-- resource: … --> files of the folder', async () => {
    await folder.writeAll({ 'img/dot.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('latin1'), 'notes.md': '# Notes' });
    const text = [
      '---',
      'description: A few-shot prompt',
      '---',
      'Translate {{ word }}.',
      '<!-- message: assistant -->',
      'Bonjour.',
      '<!-- message: user -->',
      '```md',
      '<!-- message: assistant -->',
      '```',
      '<!-- resource: notes.md -->',
      '<!-- resource: img/dot.png -->',
      '<!-- resource: ../secret.md -->',
    ].join('\n');
    const entry = parsePromptFile({
      text,
      file: `${folder.dir}/few/shot.md`,
      name: 'few/shot',
      source: 'few/shot.md',
      engines: testEngines,
    });
    expect(entry.arguments.map((argument) => argument.name)).toEqual(['word']);
    const { messages } = await entry.render({ word: 'hello' });
    expect(messages.map((message) => [message.role, message.content.type])).toEqual([
      ['user', 'text'],
      ['assistant', 'text'],
      ['user', 'text'],
      ['user', 'resource'],
      ['user', 'image'],
      ['user', 'text'],
    ]);
    expect(messages[0]?.content).toEqual({ type: 'text', text: 'Translate hello.' });
    expect(messages[2]?.content).toEqual({ type: 'text', text: '```md\n<!-- message: assistant -->\n```' });
    expect(messages[3]?.content).toMatchObject({ resource: { text: '# Notes', mimeType: 'text/markdown' } });
    expect(messages[4]?.content).toMatchObject({ mimeType: 'image/png' });
    expect(messages[5]?.content).toEqual({ type: 'text', text: '[../secret.md: not found inside the prompt folder]' });
  });

  it('rejects a role MCP prompts do not have, naming the line', () => {
    expect(() =>
      parsePromptFile({ text: 'Hi\n<!-- message: system -->\nBe terse', file: '/p/a.md', name: 'a', source: 'a.md', engines: testEngines }),
    ).toThrow(/a\.md:2: .*use user or assistant/);
  });
});
