import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { describe, expect, it } from 'vitest';
import { jsonEditor } from './json-edit.js';
import { tomlEditor } from './toml-edit.js';

const entry = { command: 'node', args: ['cli.js'] };

describe('TOML removal', () => {
  const other = '# settings\nmodel = "o3"\n\n[mcp_servers.github]\ncommand = "gh"\n';

  it('cuts every key of the section, past blank lines and comments inside it', () => {
    const installed = tomlEditor.set(other, ['mcp_servers'], 'promptyard', { ...entry, env: { A: '1' } });
    const edited = installed.replace('\nenv =', '\n\n# token\nenv =');
    const removed = tomlEditor.remove(edited, ['mcp_servers'], 'promptyard');
    expect(parseToml(removed)).toEqual(parseToml(other));
    expect(removed).toBe(other);
  });

  it('keeps the sections after it and the comments introducing them', () => {
    const after = '\n# the next one\n[mcp_servers.next]\ncommand = "n"\n';
    const installed = `${tomlEditor.set(other, ['mcp_servers'], 'promptyard', entry)}${after}`;
    const edited = installed.replace('\nargs =', '\n# the args\nargs =');
    expect(tomlEditor.remove(edited, ['mcp_servers'], 'promptyard')).toBe(`${other}${after}`);
  });

  it('gives back the original after an install', () => {
    const installed = tomlEditor.set(other, ['mcp_servers'], 'promptyard', entry);
    expect(tomlEditor.remove(installed, ['mcp_servers'], 'promptyard')).toBe(other);
  });
});

describe('JSON removal', () => {
  it('cuts the only property with a comment after it', () => {
    const text = '{\n  "mcpServers": {\n    "promptyard": { "command": "node" } // note\n  },\n  "theme": "dark"\n}\n';
    const removed = jsonEditor.remove(text, ['mcpServers'], 'promptyard');
    expect(parseJsonc(removed)).toEqual({ theme: 'dark' });
    expect(removed).toBe('{\n  "theme": "dark"\n}\n');
  });

  it('removes the real comma, not one inside a comment', () => {
    const text = '{\n  "mcpServers": {\n    "other": {} /* c, d */ ,\n    "promptyard": { "command": "node" }\n  }\n}\n';
    const removed = jsonEditor.remove(text, ['mcpServers'], 'promptyard');
    expect(removed).toBe('{\n  "mcpServers": {\n    "other": {} /* c, d */ \n  }\n}\n');
    expect(parseJsonc(removed)).toEqual({ mcpServers: { other: {} } });
  });
});

describe('JSON insertion', () => {
  it('keeps the comments of an object holding nothing else, and removal gives it back', () => {
    const text = '{\n  "mcpServers": { // mine\n    // "old": { "command": "old" }\n  }\n}\n';
    const installed = jsonEditor.set(text, ['mcpServers'], 'promptyard', entry);
    expect(installed).toContain('// mine\n');
    expect(installed).toContain('    // "old": { "command": "old" }\n');
    expect(jsonEditor.get(installed, ['mcpServers'], 'promptyard')).toEqual(entry);
    expect(jsonEditor.remove(installed, ['mcpServers'], 'promptyard')).toBe(text);
  });

  it('keeps a root holding only commented-out settings (Zed)', () => {
    const text = '// Zed settings\n{\n  // "theme": "One Dark"\n}\n';
    const installed = jsonEditor.set(text, ['context_servers'], 'promptyard', entry);
    expect(installed).toContain('  // "theme": "One Dark"\n');
    expect(jsonEditor.remove(installed, ['context_servers'], 'promptyard')).toBe(text);
  });
});
