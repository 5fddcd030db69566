import { createLogger } from '@promptyard/core';
import { describe, expect, it } from 'vitest';
import { capReasons, CapNotes, definitionCapOf } from './definition-cap.js';

const global = definitionCapOf('github', undefined, 10_000);

describe('capReasons', () => {
  it('says of each cut list how long it was, the setting and what to do, in list order', () => {
    expect(capReasons('github', { prompts: { count: 12_000, more: false }, tools: { count: 11_000, more: true } }, global)).toEqual([
      'github: lists more than 10000 tools, over [limits] max_definitions (10000); the first 10000 are served — raise the limit or trim the server',
      'github: lists 12000 prompts, over [limits] max_definitions (10000); the first 10000 are served — raise the limit or trim the server',
    ]);
    expect(capReasons('github', { resourceTemplates: { count: 6, more: false } }, definitionCapOf('github', 5, 10_000))).toEqual([
      'github: lists 6 resource templates, over max_definitions of [servers."github"] (5); the first 5 are served — raise the limit or trim the server',
    ]);
    expect(capReasons('github', {}, global)).toEqual([]);
  });
});

describe('CapNotes', () => {
  it('logs a reason once, however often the same cut list is fetched, and says when the lists are within the cap again', () => {
    const lines: string[] = [];
    const notes = new CapNotes('github', global, createLogger({ level: 'info', write: (line) => lines.push(line) }));
    const cuts = { tools: { count: 11_000, more: true } };
    notes.update(cuts);
    notes.update({ ...cuts });
    expect(notes.current).toEqual(capReasons('github', cuts, global));
    expect(notes.cuts).toEqual(cuts);
    expect(lines.filter((line) => line.includes('lists more than 10000 tools'))).toHaveLength(1);
    notes.update({});
    expect(notes.current).toEqual([]);
    expect(lines.filter((line) => line.includes('within its max_definitions again'))).toHaveLength(1);
  });
});
