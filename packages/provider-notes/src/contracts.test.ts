import { createTestContext, promptSourceContract, resourceProviderContract, toolProviderContract } from '@promptyard/core/testing';
import type { ContractCheck } from '@promptyard/core/testing';
import { createLiquidEngine } from '@promptyard/templates';
import { describe, it } from 'vitest';
import { createPromptSource, createResourceProvider, createToolProvider } from './index.js';

// What a user writes under [[providers]] options in promptyard.toml.
const notes = {
  standup: '# Standup for {{ team }}\n\nYesterday, today, blockers.\nDeploys happen on Friday.',
  retro: '# Retro\n\nWhat went well, what did not, what we change.',
};

const run = (checks: readonly ContractCheck[]): void => {
  for (const check of checks) it(check.name, check.run);
};

describe('note:// resources', () => {
  run(
    resourceProviderContract({
      create: (context) => createResourceProvider(notes, context),
      readable: [{ uri: 'note://retro', text: notes.retro, mimeType: 'text/markdown' }],
      missing: ['note://standpu', 'note://%E0%A4%A'],
      completions: [{ uriTemplate: 'note://{name}', variable: 'name', value: 'st', expected: ['standup'] }],
    }),
  );
});

describe('the search_notes tool', () => {
  run(
    toolProviderContract({
      create: (context) => createToolProvider(notes, context),
      calls: [
        { name: 'search_notes', arguments: { query: 'friday deploys' }, text: 'standup: Deploys happen on Friday.' },
        {
          name: 'search_notes',
          arguments: { query: 'nothing like this' },
          text: 'No note line contains "nothing like this". Notes: retro, standup.',
        },
      ],
      invalid: [
        { name: 'search_notes', arguments: {}, text: 'Invalid arguments for tool "search_notes": "query" is required.' },
        { name: 'search_notes', arguments: { query: 'x', limit: 500 }, text: /"limit" must be/ },
        { name: 'search_notes', arguments: { query: 'x', colour: 'red' }, text: /"colour" is not an argument of this tool/ },
      ],
    }),
  );
});

describe('notes as prompts', () => {
  run(
    promptSourceContract({
      // The server hands prompt sources its own engines; a test uses the real ones too.
      context: createTestContext({ engines: { liquid: createLiquidEngine() } }),
      create: (context) => createPromptSource(notes, context),
      renders: [
        {
          name: 'note:standup',
          arguments: { team: 'platform' },
          text: '# Standup for platform\n\nYesterday, today, blockers.\nDeploys happen on Friday.',
        },
        { name: 'note:retro', text: notes.retro },
      ],
    }),
  );
});
