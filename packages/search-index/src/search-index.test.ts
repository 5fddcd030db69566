import { describe, expect, it } from 'vitest';
import { createSearchIndex, tokenizeIdentifier } from './search-index.js';
import type { SearchHit } from './search-index.js';

interface Card {
  readonly kind: 'tool' | 'prompt';
  readonly server: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly keywords?: readonly string[];
}

const cards: Card[] = [
  {
    kind: 'tool',
    server: 'github',
    name: 'github_create_issue',
    description: 'Open a new issue in a repository.',
    keywords: ['owner', 'repo', 'title', 'body'],
  },
  {
    kind: 'tool',
    server: 'github',
    name: 'github_list_pull_requests',
    title: 'List pull requests',
    description: 'Pull requests of a repository, newest first.',
  },
  { kind: 'tool', server: 'github', name: 'github_search_code', description: 'Search code across repositories.', keywords: ['query'] },
  { kind: 'tool', server: 'fs', name: 'fs.read-file', description: 'Read a text file from disk.', keywords: ['path'] },
  { kind: 'tool', server: 'fs', name: 'fs.writeFile', description: 'Write a text file.', keywords: ['path', 'content'] },
  {
    kind: 'tool',
    server: 'linear',
    name: 'createIssue',
    title: 'Create issue',
    description: 'Create a Linear ticket.',
    keywords: ['teamId'],
  },
  { kind: 'prompt', server: 'notes', name: 'summarize', description: 'Summarize an issue thread for a changelog.' },
];

const cardIndex = () =>
  createSearchIndex<Card>({
    id: (card) => card.name,
    fields: (card) => ({ name: card.name, title: card.title, description: card.description, text: card.keywords?.join(' ') }),
  });

const index = () => {
  const built = cardIndex();
  built.replace(cards);
  const search = (query: string, options: { limit?: number; server?: string } = {}): (Card & { score: number })[] =>
    built
      .search(query, {
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(options.server === undefined ? {} : { filter: (card: Card) => card.server === options.server }),
      })
      .map((hit: SearchHit<Card>) => ({ ...hit.item, score: hit.score }));
  return { search };
};

const names = (results: readonly { name: string }[]): string[] => results.map((result) => result.name);

describe('tokenizeIdentifier', () => {
  it('splits snake, kebab, dotted and camel case names into lowercase words', () => {
    expect(tokenizeIdentifier('github_create_issue')).toEqual(['github', 'create', 'issue']);
    expect(tokenizeIdentifier('createIssue')).toEqual(['create', 'issue']);
    expect(tokenizeIdentifier('fs.read-file')).toEqual(['fs', 'read', 'file']);
    expect(tokenizeIdentifier('HTTPServer getV2Api')).toEqual(['http', 'server', 'get', 'v2', 'api']);
    expect(tokenizeIdentifier('  ')).toEqual([]);
    expect(tokenizeIdentifier('résumé_créer')).toEqual(['résumé', 'créer']);
  });
});

describe('createSearchIndex', () => {
  it('finds cards by a word of the name, whatever the naming style', () => {
    const found = names(index().search('create issue'));
    expect(found.slice(0, 2).sort()).toEqual(['createIssue', 'github_create_issue']);
    expect(names(index().search('read file'))[0]).toBe('fs.read-file');
    expect(names(index().search('write'))[0]).toBe('fs.writeFile');
  });

  it('finds cards by description, title and argument names', () => {
    expect(names(index().search('newest'))).toEqual(['github_list_pull_requests']);
    expect(names(index().search('ticket'))).toEqual(['createIssue']);
    expect(names(index().search('teamId'))).toEqual(['createIssue']);
    expect(names(index().search('owner'))).toEqual(['github_create_issue']);
  });

  it('tolerates typos and matches prefixes', () => {
    expect(names(index().search('summarise'))).toContain('summarize');
    expect(names(index().search('repositry'))).toContain('github_create_issue');
    expect(names(index().search('pull req'))[0]).toBe('github_list_pull_requests');
    expect(names(index().search('summ'))[0]).toBe('summarize');
  });

  it('ranks a name match above a description match, and returns scores best first', () => {
    const results = index().search('issue');
    expect(results[0]?.name).not.toBe('summarize');
    expect(names(results)).toContain('summarize');
    expect(names(results).indexOf('summarize')).toBe(results.length - 1);
    const scores = results.map((result) => result.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((score) => score > 0)).toBe(true);
  });

  it('filters by server and honours the limit', () => {
    expect(names(index().search('issue', { server: 'linear' }))).toEqual(['createIssue']);
    expect(index().search('file', { server: 'github' })).toEqual([]);
    expect(index().search('repository', { limit: 1 })).toHaveLength(1);
    expect(index().search('repository', { limit: 0 })).toEqual([]);
  });

  it('keeps the card fields in results', () => {
    const [first] = index().search('linear ticket');
    expect(first).toMatchObject({ kind: 'tool', server: 'linear', name: 'createIssue', title: 'Create issue' });
  });

  it('finds nothing for an empty or blank query, or an empty index', () => {
    expect(index().search('')).toEqual([]);
    expect(index().search('   ')).toEqual([]);
    expect(index().search('?!')).toEqual([]);
    expect(cardIndex().search('issue')).toEqual([]);
  });

  it('replaces the whole set, updates items one by one and reports its size', () => {
    const built = cardIndex();
    built.replace(cards);
    expect(built.size).toBe(cards.length);
    built.replace([{ kind: 'tool', server: 'x', name: 'ping' }]);
    expect(built.size).toBe(1);
    expect(built.search('issue')).toEqual([]);
    expect(built.search('ping').map((hit) => hit.item.name)).toEqual(['ping']);
    // An edited item is found by its new words only; a deleted one not at all.
    built.set({ kind: 'tool', server: 'x', name: 'ping', description: 'Checks the connection' });
    expect(built.search('connection').map((hit) => hit.item.name)).toEqual(['ping']);
    built.set({ kind: 'tool', server: 'x', name: 'ping', description: 'Round trip' });
    expect(built.search('connection')).toEqual([]);
    built.delete('ping');
    expect(built.size).toBe(0);
    expect(built.search('ping')).toEqual([]);
  });

  it('finds the one matching item among 5,000 with every word of the query first', () => {
    const many: Card[] = Array.from({ length: 5000 }, (_, number) => ({
      kind: 'tool',
      server: `server${number % 50}`,
      name: `server${number % 50}_do_thing_${number}`,
      description: `Does thing number ${number} with the widget and the gadget.`,
      keywords: ['input', 'options', `field${number % 7}`],
    }));
    const built = cardIndex();
    built.replace(many);
    expect(built.size).toBe(5000);
    expect(built.search('thing 4242')[0]?.item.name).toBe('server42_do_thing_4242');
    expect(
      built.search('thing 4242', { filter: (card) => card.server === 'server43' }).some((hit) => hit.item.name.endsWith('_4242')),
    ).toBe(false);
  });
});
