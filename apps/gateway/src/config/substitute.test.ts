import { describe, expect, it } from 'vitest';
import { substituteVariables } from './substitute.js';

const env = { A: 'a', EMPTY: '' };

describe('substituteVariables', () => {
  it('substitutes ${NAME}, ${env:NAME} and ${NAME:-default}', () => {
    expect(substituteVariables('${A}/${env:A}/${B:-b c}/${EMPTY:-d}/${EMPTY}', { env })).toEqual({ value: 'a/a/b c/d/', problems: [] });
  });

  it('keeps $${ literal and leaves a lone $ alone', () => {
    expect(substituteVariables('$${A} $A $$ ${', { env }).value).toBe('${A} $A $$ ${');
  });

  it('resolves builtins before the environment, except for ${env:…}', () => {
    const context = { env: { workspaceFolder: 'env' }, builtins: { workspaceFolder: '/repo' } };
    expect(substituteVariables('${workspaceFolder} ${env:workspaceFolder}', context).value).toBe('/repo env');
  });

  it('reports unset variables, ${input:…} and malformed references', () => {
    const result = substituteVariables('${NOPE} ${input:key} ${a b}', { env });
    expect(result.value).toBe('${NOPE} ${input:key} ${a b}');
    expect(result.problems).toEqual([
      "uses ${NOPE}, but NOPE is not set: set NOPE in the gateway's environment, or give a default as ${NOPE:-value}",
      "uses ${input:key}, which only VS Code can prompt for: replace it with ${env:NAME} and set NAME in the gateway's environment, or with the value itself",
      'has ${a b}, which is not a variable: write ${NAME}, ${env:NAME} or ${NAME:-default} (and $${ for a literal ${)',
    ]);
    expect(substituteVariables('${NOPE}', { env, lenient: true }).problems).toEqual([]);
  });
});
