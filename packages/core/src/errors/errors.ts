/**
 * Every failure Promptyard reports carries a stable `code`, a message that tells the user what to do
 * next, and optionally the underlying `cause`. The MCP seam maps codes to JSON-RPC errors.
 */
export type PromptyardErrorCode =
  | 'PROMPT_NOT_FOUND'
  | 'TOOL_NOT_FOUND'
  | 'RESOURCE_NOT_FOUND'
  | 'MISSING_ARGUMENTS'
  | 'INVALID_ARGUMENT'
  | 'TEMPLATE_ERROR'
  | 'INVALID_CURSOR'
  | 'INVALID_REQUEST'
  | 'CONFIG_INVALID'
  | 'SOURCE_ERROR'
  | 'TIMEOUT'
  | 'RESPONSE_TOO_LARGE'
  | 'BACKEND_UNAVAILABLE'
  | 'BACKEND_ERROR'
  /** A gateway definition held back by `pinning = "enforce"` until an operator approves it. */
  | 'QUARANTINED'
  /** A call that needs a person's approval (`[[policy]] approve`) did not get it: declined, unanswered, or nobody could be asked. */
  | 'APPROVAL_DECLINED'
  | 'INTERNAL';

export interface PromptyardErrorOptions {
  readonly cause?: unknown;
  /** Structured details safe to show a client (never argument values or secrets). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * The brand every `PromptyardError` carries. `Symbol.for` is one symbol across copies of this package
 * (a provider installed beside its own `@promptyard/core`, as `npx` and global installs do), so an
 * error thrown by any copy is recognised by every other: never test with a plain prototype check.
 */
const brand = Symbol.for('promptyard.error');

export class PromptyardError extends Error {
  /** `instanceof` matches errors of any copy of this package, by brand. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isPromptyardError(value);
  }

  override readonly name = 'PromptyardError';
  readonly code: PromptyardErrorCode;
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(code: PromptyardErrorCode, message: string, options: PromptyardErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = options.data;
    Object.defineProperty(this, brand, { value: true });
  }
}

/**
 * Whether `value` is a `PromptyardError` of any copy of this package. A copy older or newer than this
 * one may know other codes: read `code` as a string and treat unknown codes as failures.
 */
export const isPromptyardError = (value: unknown): value is PromptyardError =>
  typeof value === 'object' &&
  value !== null &&
  (value as { readonly [brand]?: unknown })[brand] === true &&
  typeof (value as { readonly code?: unknown }).code === 'string';

/** Error codes that mean "the request was wrong" (JSON-RPC -32602) rather than "the server failed". */
const invalidParamsCodes: ReadonlySet<PromptyardErrorCode> = new Set([
  'PROMPT_NOT_FOUND',
  'TOOL_NOT_FOUND',
  'RESOURCE_NOT_FOUND',
  'MISSING_ARGUMENTS',
  'INVALID_ARGUMENT',
  'TEMPLATE_ERROR',
  'INVALID_CURSOR',
  'INVALID_REQUEST',
]);

export const isInvalidParams = (code: PromptyardErrorCode): boolean => invalidParamsCodes.has(code);

/** A readable one-line description of any thrown value. */
export const describeError = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  return String(error);
};
