import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { describe, expect, it } from 'vitest';
import { jsonEditor } from './json-edit.js';
import { tomlEditor } from './toml-edit.js';
import { yamlEditor } from './yaml-edit.js';

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

  it('is not fooled by a line starting with [ inside a multi-line string', () => {
    const installed = tomlEditor.set(other, ['mcp_servers'], 'promptyard', entry);
    const edited = installed.replace('\nargs =', '\ndescription = """\n[not.a.table]\nx = 1\n"""\nargs =');
    const removed = tomlEditor.remove(edited, ['mcp_servers'], 'promptyard');
    expect(removed).toBe(other);
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

describe('YAML (Continue) splicing', () => {
  const long = 'a long description that goes on and on well past eighty columns, which the yaml library would fold';
  const odd = `name:   My Config    # mine\nmodels:\n   -   name: m\n       roles:   [chat,  edit]\n       description: ${long}\n\n#   spaced   comment\nmcpServers:\n   -   name: other     # keep\n       command: other-server\n       args:\n       - --flag\nrules: [ a,b ]\n`;

  it('install keeps every other line, and uninstall gives the file back byte for byte', () => {
    const installed = yamlEditor.set(odd, ['mcpServers'], 'promptyard', entry);
    expect(yamlEditor.get(installed, ['mcpServers'], 'promptyard')).toEqual(entry);
    // Every line of the original is there, in order, unchanged; what is added is the entry's lines, after the other server.
    const added = installed.split('\n');
    for (const line of odd.split('\n')) added.splice(added.indexOf(line), 1);
    expect(added).toEqual(['   -   name: promptyard', '       command: node', '       args:', '         - cli.js']);
    expect(installed.indexOf('name: promptyard')).toBeGreaterThan(installed.indexOf('--flag'));
    expect(yamlEditor.remove(installed, ['mcpServers'], 'promptyard')).toBe(odd);
  });

  it('updates the entry in place and adds the list when there is none', () => {
    const installed = yamlEditor.set(odd, ['mcpServers'], 'promptyard', entry);
    const updated = yamlEditor.set(installed, ['mcpServers'], 'promptyard', { command: 'other' });
    expect(yamlEditor.get(updated, ['mcpServers'], 'promptyard')).toEqual({ command: 'other' });
    expect(yamlEditor.remove(updated, ['mcpServers'], 'promptyard')).toBe(odd);
    const bare = 'name:   x   # c\nmodels:   [chat,  edit]\n';
    const added = yamlEditor.set(bare, ['mcpServers'], 'promptyard', entry);
    expect(added.startsWith(bare)).toBe(true);
    expect(yamlEditor.remove(added, ['mcpServers'], 'promptyard')).toBe(bare);
  });
});
