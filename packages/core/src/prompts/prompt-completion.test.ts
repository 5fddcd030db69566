import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createHistory } from './prompt-completion.js';

/** A full collection, from V8's own `gc` (exposed to a fresh context). */
const collectGarbage = (): void => {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
};

/** Whether the object `ref` points to is still held by anything after a full collection. */
const heldAfterCollection = async (ref: WeakRef<object>): Promise<boolean> => {
  // A WeakRef keeps its target alive until the job that made it ends.
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  return ref.deref() !== undefined;
};

describe('createHistory', () => {
  it('offers recent values of an argument, most recent first, with the short values given alongside', () => {
    const history = createHistory();
    history.add('review', { language: 'go', focus: 'security' });
    history.add('review', { language: 'rust', focus: 'speed' });
    history.add('other', { language: 'python' });
    expect(history.of('review', 'language')).toEqual([
      { value: 'rust', with: { focus: 'speed' } },
      { value: 'go', with: { focus: 'security' } },
    ]);
  });

  it('lets go of a get whose arguments hold a value too long to offer again (pasted code, a diff)', async () => {
    const history = createHistory();
    const add = (): WeakRef<object> => {
      const args = { code: `${'const answer = 42;\n'.repeat(200)}`, language: 'go' };
      history.add('review', args);
      return new WeakRef(args);
    };
    const ref = add();
    // Before: each of the last 4,096 gets' arguments was kept as given, its long values too.
    expect(await heldAfterCollection(ref)).toBe(false);
    expect(history.of('review', 'language')).toEqual([{ value: 'go', with: {} }]);
    expect(history.of('review', 'code')).toEqual([]);
  });

  it('keeps the arguments of a get as given (no copy) when every value is short', async () => {
    const history = createHistory();
    const add = (): WeakRef<object> => {
      const args = { language: 'go' };
      history.add('review', args);
      return new WeakRef(args);
    };
    const ref = add();
    expect(await heldAfterCollection(ref)).toBe(true);
  });
});
