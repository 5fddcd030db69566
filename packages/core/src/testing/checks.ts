import assert from 'node:assert/strict';
import { isPromptyardError } from '../errors/errors.js';
import type { PromptyardErrorCode } from '../errors/errors.js';
import { createLogger } from '../logging/logger.js';
import type { LogRecord } from '../logging/logger.js';
import type { ProviderContext } from '../contracts/providers.js';
import type { TemplateEngine } from '../contracts/types.js';

/**
 * One named contract check. The lists the contracts return plug into any test runner:
 * `for (const check of resourceProviderContract({…})) it(check.name, check.run);`
 */
export interface ContractCheck {
  readonly name: string;
  run(): Promise<void>;
}

/** What a text fixture must be: equal to a string, or matching a pattern. */
export type TextExpectation = string | RegExp;

export interface TestContext extends ProviderContext {
  /** Every record the provider logged, for assertions on its warnings. */
  readonly records: readonly LogRecord[];
}

/**
 * A `ProviderContext` for tests: a logger that keeps its records, `baseDir` the working directory,
 * and no template engines unless given (a prompt source that renders templates gets the real ones
 * from `@promptyard/templates`, as the server gives them).
 */
export const createTestContext = (
  options: { readonly baseDir?: string; readonly engines?: Readonly<Record<string, TemplateEngine>> } = {},
): TestContext => {
  const records: LogRecord[] = [];
  const logger = createLogger({ level: 'debug', scope: 'provider', write: () => {} });
  logger.subscribe((record) => records.push(record));
  return { logger, baseDir: options.baseDir ?? process.cwd(), engines: options.engines ?? {}, records };
};

export const expectText = (actual: string, expected: TextExpectation, what: string): void => {
  if (typeof expected === 'string') assert.equal(actual, expected, `${what}: unexpected text`);
  else assert.match(actual, expected, `${what}: text does not match ${String(expected)}`);
};

/** Runs `work` and returns what it threw; fails when it did not throw. */
export const thrownBy = async (work: () => Promise<unknown>, what: string): Promise<unknown> => {
  try {
    await work();
  } catch (error) {
    return error;
  }
  assert.fail(`${what} should have failed, but it succeeded`);
};

/** A `PromptyardError` of `code` (of any copy of @promptyard/core), with a message a user can act on. */
export const expectPromptyardError = (error: unknown, code: PromptyardErrorCode, what: string): void => {
  assert.ok(
    isPromptyardError(error),
    `${what} should throw a PromptyardError (so clients get the right JSON-RPC error), got: ${String(error)}`,
  );
  assert.equal(error.code, code, `${what} should fail with code ${code}, got ${error.code}: ${error.message}`);
  assert.ok(
    error.message.trim().length >= 10,
    `${what}: the error message should tell the user what happened and what to do, got "${error.message}"`,
  );
};

/** Fails when `work` has not settled within `ms` (it is left running). */
export const settlesWithin = async (work: Promise<unknown>, ms: number, what: string): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([
    work.then(
      () => 'settled' as const,
      () => 'settled' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  assert.equal(outcome, 'settled', `${what} did not stop within ${ms} ms of being cancelled: pass the signal on to the I/O it starts`);
};
