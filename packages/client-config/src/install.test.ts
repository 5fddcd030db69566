import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clients } from './clients/clients.js';
import type { ClientDefinition } from './clients/clients.js';
import { uninstallEntry } from './install.js';

const cursor = clients.find((client) => client.id === 'cursor') as ClientDefinition;
let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'client-config-install-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('uninstallEntry', () => {
  it('removes an only entry followed by a comment once, then finds it absent', async () => {
    const file = join(folder, 'mcp.json');
    const text = '{\n  "mcpServers": {\n    "promptyard": { "command": "node" } // note\n  },\n  "theme": "dark"\n}\n';
    await writeFile(file, text);
    const target = { client: cursor, file, name: 'promptyard', dryRun: false };
    expect((await uninstallEntry(target)).outcome).toBe('removed');
    expect(await readFile(file, 'utf8')).toBe('{\n  "theme": "dark"\n}\n');
    expect((await uninstallEntry(target)).outcome).toBe('absent');
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(text);
  });
});
