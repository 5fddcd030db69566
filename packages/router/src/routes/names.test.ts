import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, createNamer, decodeUri, encodeUri, encodeUriTemplate, shortHash, uriScheme } from './names.js';

const legal = /^[A-Za-z0-9_.-]{1,64}$/;

describe('createNamer', () => {
  const namer = createNamer({ separator: '_' });

  it('joins prefix, separator and name, or passes the name through', () => {
    expect(namer.encode('github', 'create_issue')).toBe('github_create_issue');
    expect(namer.encode(false, 'create_issue')).toBe('create_issue');
    expect(createNamer({ separator: '__' }).encode('fs', 'read')).toBe('fs__read');
    expect(createNamer({ separator: '.' }).encode('fs', 'read')).toBe('fs.read');
  });

  it('keeps a name of exactly the limit as is', () => {
    const name = 'a'.repeat(MAX_NAME_LENGTH - 3);
    expect(namer.encode('ab', name)).toBe(`ab_${name}`);
    expect(namer.encode('ab', name)).toHaveLength(64);
  });

  it('shortens long names to the limit, keeping the prefix and separator', () => {
    const long = `create_${'x'.repeat(100)}`;
    const encoded = namer.encode('github', long);
    expect(encoded.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    expect(encoded).toHaveLength(64);
    expect(encoded.startsWith('github_create_')).toBe(true);
    expect(encoded).toMatch(/-[a-z2-7]{6}$/);
    expect(encoded).toMatch(legal);
  });

  it('never collides for distinct long names sharing the first 60 characters', () => {
    const stem = 'n'.repeat(60);
    const seen = new Set<string>();
    for (let index = 0; index < 2000; index++) seen.add(namer.encode('srv', `${stem}${index}`));
    expect(seen.size).toBe(2000);
    for (const name of seen) expect(name).toMatch(legal);
  });

  it('is stable across runs (a fixed input has a fixed output)', () => {
    expect(shortHash('github_create_issue')).toBe(shortHash('github_create_issue'));
    expect(namer.encode('s', 'x'.repeat(80))).toBe(createNamer({ separator: '_' }).encode('s', 'x'.repeat(80)));
    // Pinned so a change of algorithm (which renames every long tool clients remember) is noticed.
    expect(shortHash('abc')).toMatch(/^[a-z2-7]{6}$/);
    expect(namer.encode('s', 'x'.repeat(80))).toBe(`s_${'x'.repeat(55)}-${shortHash(`s_${'x'.repeat(80)}`)}`);
  });

  it('replaces characters tools may not use, and hashes so repairs cannot collide', () => {
    const spaced = namer.encode('my', 'do thing');
    const underscored = namer.encode('my', 'do_thing');
    expect(underscored).toBe('my_do_thing');
    expect(spaced).toMatch(/^my_do_thing-[a-z2-7]{6}$/);
    expect(spaced).not.toBe(underscored);
    const unicode = namer.encode('fs', 'lire-fichier-été');
    expect(unicode).toMatch(legal);
    expect(unicode.startsWith('fs_lire-fichier-_t_')).toBe(true);
    expect(namer.encode(false, 'a/b')).not.toBe(namer.encode(false, 'a:b'));
  });

  it('cuts a very long prefix too', () => {
    const encoded = namer.encode('p'.repeat(100), 'tool');
    expect(encoded).toHaveLength(64);
    expect(encoded).toMatch(legal);
  });

  it('honours maxLength and refuses bad separators', () => {
    const short = createNamer({ separator: '_', maxLength: 20 });
    expect(short.encode('github', 'create_pull_request')).toHaveLength(20);
    expect(() => createNamer({ separator: '/' })).toThrow(/separator "\/" is not allowed/);
    expect(() => createNamer({ separator: '' })).toThrow(/separator/);
    expect(() => createNamer({ separator: '_', maxLength: 3 })).toThrow(/too small/);
  });
});

describe('URI namespacing', () => {
  const known = new Set(['fs', 'My_Server', '1password', 'web']);

  it('prefixes the scheme and round-trips', () => {
    expect(encodeUri('fs', 'file:///a')).toBe('fs+file:///a');
    expect(decodeUri('fs+file:///a', known)).toEqual({ prefix: 'fs', uri: 'file:///a' });
  });

  it('marks URIs without a scheme', () => {
    expect(encodeUri('fs', 'notes/today.md')).toBe('fs+:notes/today.md');
    expect(decodeUri('fs+:notes/today.md', known)).toEqual({ prefix: 'fs', uri: 'notes/today.md' });
    expect(decodeUri(encodeUri('fs', ':odd'), known)).toEqual({ prefix: 'fs', uri: ':odd' });
  });

  it('maps prefixes to legal schemes deterministically', () => {
    expect(uriScheme('My_Server')).toBe('my-server');
    expect(uriScheme('1password')).toBe('s1password');
    expect(uriScheme('a+b')).toBe('a-b');
    expect(encodeUri('My_Server', 'db://x')).toBe('my-server+db://x');
    expect(decodeUri('my-server+db://x', known)).toEqual({ prefix: 'My_Server', uri: 'db://x' });
    expect(decodeUri(encodeUri('1password', 'op://vault/item'), known)).toEqual({ prefix: '1password', uri: 'op://vault/item' });
    for (const prefix of known) expect(encodeUri(prefix, 'x:y')).toMatch(/^[a-z][a-z0-9.-]*\+x:y$/);
  });

  it('round-trips unicode and odd URIs', () => {
    for (const uri of ['file:///tmp/été/ß.md', 'mem://ключ', 'weird uri with spaces', 'https://x.test/a?b=c+d#e', '']) {
      for (const prefix of known) expect(decodeUri(encodeUri(prefix, uri), known)).toEqual({ prefix, uri });
    }
  });

  it('refuses anything encodeUri did not make for a known prefix', () => {
    expect(decodeUri('file:///a', known)).toBeUndefined();
    expect(decodeUri('other+file:///a', known)).toBeUndefined();
    expect(decodeUri('+file:///a', known)).toBeUndefined();
    expect(decodeUri('fs+no-scheme', known)).toBeUndefined();
    expect(decodeUri('fs', known)).toBeUndefined();
  });

  it('encodes templates the same way', () => {
    expect(encodeUriTemplate('fs', 'file:///{path}')).toBe('fs+file:///{path}');
    expect(encodeUriTemplate('web', '{+url}')).toBe('web+:{+url}');
    expect(decodeUri('web+:https://example.com', known)).toEqual({ prefix: 'web', uri: 'https://example.com' });
  });
});

describe('createNamer without sanitising (prompt names)', () => {
  it('keeps characters that prompt names may carry and still shortens long names', () => {
    const namer = createNamer({ separator: '_', sanitize: false });
    expect(namer.encode('prompts', 'git/commit-message')).toBe('prompts_git/commit-message');
    const long = namer.encode('prompts', `docs/${'x'.repeat(80)}`);
    expect(long.length).toBe(64);
    expect(long.startsWith('prompts_docs/xxx')).toBe(true);
  });
});
