import { describe, expect, it } from 'vitest';
import { StartupWait } from './startup-wait.js';

const deferred = (): { promise: Promise<void>; resolve: () => void } => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};

describe('StartupWait', () => {
  it('has nothing pending with a wait of 0', () => {
    const wait = new StartupWait();
    wait.begin(new Promise(() => {}), 0);
    expect(wait.pending).toBeUndefined();
  });

  it('finds a name after the rebuild that brings it, before the start is over', async () => {
    const wait = new StartupWait();
    const starting = deferred();
    wait.begin(starting.promise, 60_000);
    let routes = new Map<string, number>();
    const found = wait.lookUp(() => routes.get('late_tool'));
    routes = new Map([['late_tool', 1]]);
    wait.rebuilt();
    await expect(found).resolves.toBe(1);
    expect(wait.pending).toBeInstanceOf(Promise);
    starting.resolve();
    await wait.pending;
    expect(wait.pending).toBeUndefined();
  });

  it('gives up when the start is over and the name never came', async () => {
    const wait = new StartupWait();
    const starting = deferred();
    wait.begin(starting.promise, 60_000);
    const found = wait.lookUp(() => undefined);
    wait.rebuilt();
    starting.resolve();
    await expect(found).resolves.toBeUndefined();
  });

  it('ends at the limit even when servers are still starting', async () => {
    const wait = new StartupWait();
    wait.begin(new Promise(() => {}), 20);
    await expect(wait.lookUp(() => undefined)).resolves.toBeUndefined();
    expect(wait.pending).toBeUndefined();
  });
});
