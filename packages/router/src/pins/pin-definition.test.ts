import { join, resolve } from 'node:path';
import { sha256Hex } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { pinFileFor } from './open-pin-book.js';
import { changedFields, pinnedForm } from './pin-definition.js';

describe('pinnedForm', () => {
  it('covers what a model reads of a tool, whatever the key order, and nothing else', () => {
    const a = pinnedForm('tool', {
      name: 'echo',
      description: 'Echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      annotations: { readOnlyHint: true },
      _meta: { 'io.example/ignored': 1 },
      execution: { taskSupport: 'optional' },
    });
    expect(a.definition).toEqual({
      name: 'echo',
      description: 'Echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    });
    const b = pinnedForm('tool', {
      annotations: { readOnlyHint: true },
      inputSchema: { properties: { text: { type: 'string' } }, type: 'object' },
      description: 'Echo',
      name: 'echo',
    });
    expect(b.digest).toBe(a.digest);
    expect(pinnedForm('tool', { name: 'echo', description: 'Echo!', inputSchema: a.definition['inputSchema'] }).digest).not.toBe(a.digest);
  });

  it('covers a prompt name, title, description and arguments', () => {
    const form = pinnedForm('prompt', { name: 'review', title: 'Review', arguments: [{ name: 'code', required: true }], icons: [] });
    expect(Object.keys(form.definition)).toEqual(['name', 'title', 'arguments']);
  });
});

describe('changedFields', () => {
  it('names the top-level fields that differ, a field present on one side only included', () => {
    expect(
      changedFields(
        { name: 'x', description: 'a', inputSchema: { type: 'object', required: ['q'] } },
        { name: 'x', description: 'b', inputSchema: { required: ['q'], type: 'object' }, annotations: { destructiveHint: true } },
      ),
    ).toEqual(['description', 'annotations']);
    expect(changedFields({ name: 'x' }, { name: 'x' })).toEqual([]);
  });
});

describe('pinFileFor', () => {
  it('puts one file per config under the user config folder, named after the config and its absolute path', () => {
    const file = pinFileFor('configs/team.gateway.toml', { XDG_CONFIG_HOME: '/x/config' });
    const digest = sha256Hex(resolve('configs/team.gateway.toml')).slice(0, 16);
    expect(file).toBe(join('/x/config', 'promptyard', 'pins', `team.gateway-${digest}.json`));
    expect(pinFileFor('/etc/gateway.json', { HOME: '/home/ann' })).toMatch(
      new RegExp(`^${join('/home/ann', '.config', 'promptyard', 'pins', 'gateway-')}[0-9a-f]{16}\\.json$`),
    );
    expect(pinFileFor('/a/gateway.toml', {})).not.toBe(pinFileFor('/b/gateway.toml', {}));
  });
});
