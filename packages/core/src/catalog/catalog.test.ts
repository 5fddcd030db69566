import { describe, expect, it } from 'vitest';
import { createCatalog } from './catalog.js';
import { PromptyardError } from '../errors/errors.js';

const item = (name: string, value = name) => ({ name, value });

describe('createCatalog', () => {
  it('orders entries by name and pages them with cursors that survive changes', () => {
    const catalog = createCatalog<{ name: string; value: string }>({ kind: 'prompt', defaultPageSize: 2 });
    catalog.owner('a').replace(['d', 'b', 'a', 'c', 'e'].map((name) => item(name)));
    const first = catalog.list();
    expect(first.items.map((entry) => entry.name)).toEqual(['a', 'b']);
    // An entry added before the cursor position does not shift the next page.
    catalog.owner('b').replace([item('aa')]);
    const second = catalog.list({ cursor: first.nextCursor });
    expect(second.items.map((entry) => entry.name)).toEqual(['c', 'd']);
    const third = catalog.list({ cursor: second.nextCursor });
    expect(third.items.map((entry) => entry.name)).toEqual(['e']);
    expect(third.nextCursor).toBeUndefined();
  });

  it('ends a page before its weight passes the budget, with at least one entry per page', () => {
    const catalog = createCatalog<{ name: string; value: string }>({ kind: 'prompt', defaultPageSize: 10 });
    catalog.owner('a').replace([item('a', 'xx'), item('b', 'xx'), item('c', 'xxxxxxxx'), item('d', 'x')]);
    const budget = { weigh: (entry: { value: string }) => entry.value.length, maxWeight: 5 };
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = catalog.list({ cursor, budget });
      pages.push(page.items.map((entry) => entry.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    // c alone is over the budget: it still gets a page of its own.
    expect(pages).toEqual([['a', 'b'], ['c'], ['d']]);
  });

  it('rejects cursors it did not issue', () => {
    const catalog = createCatalog<{ name: string }>({ kind: 'prompt' });
    expect(() => catalog.list({ cursor: 'garbage!' })).toThrow(PromptyardError);
    expect(() => catalog.list({ cursor: Buffer.from('x').toString('base64url') })).toThrow(/Invalid cursor/);
  });

  it('emits one change event per update with the names whose entry changed', () => {
    const catalog = createCatalog<{ name: string; value: string }>({ kind: 'prompt' });
    const owner = catalog.owner('a');
    const events: (readonly string[])[] = [];
    catalog.onChange((change) => events.push([...change.names].sort()));
    owner.replace([item('x'), item('y')]);
    const y = catalog.get('y');
    owner.update({ upserted: [item('x', 'changed')], removed: ['y', 'missing'] });
    owner.update({ removed: ['missing'] });
    expect(events).toEqual([
      ['x', 'y'],
      ['x', 'y'],
    ]);
    expect(catalog.get('x')?.value).toBe('changed');
    expect(catalog.get('y')).toBeUndefined();
    expect(y?.name).toBe('y');
    expect(catalog.version).toBe(2);
  });

  it('serves the first owner on a name collision, reports it, and falls back when it goes away', () => {
    const catalog = createCatalog<{ name: string; value: string }>({ kind: 'prompt' });
    const conflicts: string[] = [];
    catalog.onConflict((conflict) => conflicts.push(`${conflict.name}:${conflict.kept}>${conflict.shadowed}`));
    const project = catalog.owner('project');
    const home = catalog.owner('home');
    home.replace([item('review', 'home')]);
    project.replace([item('review', 'project')]);
    expect(catalog.get('review')?.value).toBe('project');
    expect(conflicts).toContain('review:project>home');
    project.update({ removed: ['review'] });
    expect(catalog.get('review')?.value).toBe('home');
    expect(catalog.size).toBe(1);
  });
});
