import { createCatalog } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { createContentDigest } from './content-digest.js';

interface Item {
  readonly name: string;
  readonly text: string;
}

const catalogOf = (items: readonly Item[]) => {
  const catalog = createCatalog<Item>({ kind: 'item' });
  const owner = catalog.owner('files');
  owner.replace(items);
  return { catalog, owner };
};

describe('createContentDigest', () => {
  it('agrees for the same entries whatever their history, and tells any content change', () => {
    const a = catalogOf([
      { name: 'a', text: 'one' },
      { name: 'b', text: 'two' },
    ]);
    const b = catalogOf([{ name: 'b', text: 'two' }]);
    const digestA = createContentDigest(a.catalog, (item) => item.text);
    const digestB = createContentDigest(b.catalog, (item) => item.text);
    const before = digestA.value();
    expect(digestB.value()).not.toBe(before);
    b.owner.update({ upserted: [{ name: 'a', text: 'one' }] });
    expect(digestB.value()).toBe(before);

    a.owner.update({ upserted: [{ name: 'a', text: 'changed' }] });
    const edited = digestA.value();
    expect(edited).not.toBe(before);
    a.owner.update({ upserted: [{ name: 'a', text: 'one' }] });
    expect(digestA.value()).toBe(before);
    a.owner.update({ removed: ['a'] });
    b.owner.update({ removed: ['a'] });
    expect(digestA.value()).toBe(digestB.value());
    digestA.close();
    digestB.close();
  });
});
