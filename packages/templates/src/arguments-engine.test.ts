import { describe, expect, it } from 'vitest';
import { createArgumentsEngine, hasArgumentsPlaceholder } from './arguments-engine.js';

describe('createArgumentsEngine', () => {
  const engine = createArgumentsEngine();

  it('replaces every $ARGUMENTS with the argument named "arguments"', async () => {
    const source = 'User input: $ARGUMENTS\n\nAgain: "$ARGUMENTS".';
    expect(await engine.render(source, { arguments: 'fix the bug' })).toBe('User input: fix the bug\n\nAgain: "fix the bug".');
  });

  it('renders empty when the argument is absent', async () => {
    expect(await engine.render('[$ARGUMENTS]', {})).toBe('[]');
    expect(await engine.render('[$ARGUMENTS]', Object.create({ arguments: 'inherited' }) as Record<string, string>)).toBe('[]');
  });

  it('substitutes the value literally', async () => {
    const value = "$& $1 $$ $' $` $ARGUMENTS {{ x }} {% if %}";
    expect(await engine.render('<$ARGUMENTS>', { arguments: value })).toBe(`<${value}>`);
  });

  it('leaves every other placeholder and template syntax alone', async () => {
    const source = '{{ args }} $1 ${input:x} {% if a %} $ARGUMENTS';
    expect(await engine.render(source, { arguments: 'v' })).toBe('{{ args }} $1 ${input:x} {% if a %} v');
  });

  it('declares "arguments" only when the placeholder is present', () => {
    expect(engine.compile('a $ARGUMENTS b $ARGUMENTS').variables).toEqual(['arguments']);
    expect(engine.analyze('a $ARGS b').variables).toEqual([]);
    expect(hasArgumentsPlaceholder('x $ARGUMENTS')).toBe(true);
    expect(hasArgumentsPlaceholder('x $arguments $ARGUMENT')).toBe(false);
  });

  it('rejects with the abort reason when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(engine.compile('$ARGUMENTS').render({}, { signal: controller.signal })).rejects.toThrow('stop');
  });
});
