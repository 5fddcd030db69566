import { describe, expect, it } from 'vitest';
import { createPlainEngine } from './plain-engine.js';

describe('createPlainEngine', () => {
  const engine = createPlainEngine();

  it('replaces {{ name }} with or without spaces, and unknown names with nothing', async () => {
    const source = 'Hi {{name}}, {{ team.lead }} and {{  kebab-name }}: {{ missing }}.';
    expect(await engine.render(source, { name: 'Ada', 'team.lead': 'Bo', 'kebab-name': 'Cy' })).toBe('Hi Ada, Bo and Cy: .');
  });

  it('lists the names in first-use order without duplicates', () => {
    const source = '{{ b }} {{a}} {{ b }} {{ c_1 }}';
    expect(engine.compile(source).variables).toEqual(['b', 'a', 'c_1']);
    expect(engine.analyze(source).variables).toEqual(['b', 'a', 'c_1']);
    expect(engine.analyze('no placeholders, {{ 1x }} or {{ a b }}').variables).toEqual([]);
  });

  it('leaves everything else verbatim, Liquid tags included', async () => {
    const source = '{% if x %}{{ x | upcase }}{% endif %} {{ 1x }} {{ x }}';
    expect(await engine.render(source, { x: 'y' })).toBe('{% if x %}{{ x | upcase }}{% endif %} {{ 1x }} y');
  });

  it('keeps values literal: no $ patterns, no re-expansion', async () => {
    const value = "$& $1 $$ $' $` {{ b }}";
    expect(await engine.render('<{{ a }}>', { a: value, b: 'B' })).toBe(`<${value}>`);
  });

  it('reads own arguments only', async () => {
    expect(await engine.render('[{{ constructor }}][{{ toString }}][{{ __proto__ }}]', {})).toBe('[][][]');
  });

  it('rejects with the abort reason when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(engine.render('{{ a }}', { a: 'x' }, { signal: controller.signal })).rejects.toThrow('stop');
  });
});
