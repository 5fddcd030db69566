import type { JSONRPCRequest, Result, Server, ServerContext } from '@modelcontextprotocol/server';
import type { ServerSdk } from '../sdk.js';

/** One issue of the schema library the SDK validates requests with, as it serialises them. */
interface Issue {
  readonly code?: unknown;
  readonly path?: readonly unknown[];
  readonly message?: unknown;
  readonly expected?: unknown;
  readonly values?: readonly unknown[];
  readonly errors?: readonly (readonly Issue[])[];
}

const invalidParams = -32602;

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

const isIssue = (value: unknown): value is Issue => typeof value === 'object' && value !== null && Array.isArray((value as Issue).path);

/** The issues in a validation message (a JSON array, possibly after a prefix), or undefined. */
export const parseIssues = (message: string): Issue[] | undefined => {
  const start = message.indexOf('[');
  if (start === -1) return undefined;
  try {
    const parsed: unknown = JSON.parse(message.slice(start));
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue) ? parsed : undefined;
  } catch {
    return undefined;
  }
};

const article = (noun: string): string => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

const expectedNames: Readonly<Record<string, string>> = {
  record: 'an object of names and values',
  object: 'an object',
  array: 'an array',
};

const label = (path: readonly unknown[]): string => {
  const keys = path[0] === 'params' ? path.slice(1) : path;
  if (keys.length === 0) return 'params';
  if (keys.length === 2 && keys[0] === 'arguments') return `argument "${String(keys[1])}"`;
  return `"${keys.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('')}"`;
};

/** The union branch that got furthest (its first issue has the longest path): what the sender meant. */
const closestBranch = (branches: readonly (readonly Issue[])[]): readonly Issue[] | undefined =>
  [...branches].sort((a, b) => (b[0]?.path?.length ?? 0) - (a[0]?.path?.length ?? 0))[0];

const describeIssue = (issue: Issue, prefix: readonly unknown[] = []): string => {
  const path = [...prefix, ...(issue.path ?? [])];
  const what = label(path);
  const message = typeof issue.message === 'string' ? issue.message : 'is not valid';
  if (issue.code === 'invalid_union' && issue.errors !== undefined) {
    const branch = closestBranch(issue.errors);
    if (branch?.[0] !== undefined) return describeIssue(branch[0], path);
  }
  if (issue.code === 'invalid_type' && typeof issue.expected === 'string') {
    const expected = expectedNames[issue.expected] ?? article(issue.expected);
    const received = /received (\w+)/.exec(message)?.[1];
    if (received === undefined || received === 'undefined')
      return what === 'params' ? `params are missing: send ${expected}` : `${what} is missing: it must be ${expected}`;
    return `${what} must be ${expected}, not ${article(received)}`;
  }
  if (issue.code === 'invalid_value' && issue.values !== undefined && issue.values.length > 0) {
    return `${what} must be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}`;
  }
  return `${what}: ${message.replace(/^Invalid input:\s*/, '')}`;
};

/** One readable sentence for a request that failed validation. */
export const describeIssues = (method: string, issues: readonly Issue[]): string => {
  const [first] = issues;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length === 2 ? '' : 's'})` : '';
  return `Invalid ${method} request: ${first === undefined ? 'params are not valid' : describeIssue(first)}${more}.`;
};

/**
 * The SDK validates a request's params before the handler runs; for most methods a failure is a
 * plain error whose message is the schema library's issue dump, answered as -32603. It is a bad
 * request: this makes it -32602 with one sentence. Anything else passes through unchanged.
 */
export const readableValidationError = (sdk: typeof ServerSdk, method: string, error: unknown): unknown => {
  if (!(error instanceof Error)) return error;
  const isProtocolError = error instanceof sdk.ProtocolError;
  if (isProtocolError && error.code !== invalidParams) return error;
  const issues = parseIssues(error.message);
  if (issues === undefined) return error;
  return new sdk.ProtocolError(invalidParams, describeIssues(method, issues));
};

/** `sdk.Server` with every request handler's validation failures made readable (see above). */
export const createValidatingServer = (sdk: typeof ServerSdk): typeof Server => {
  class ValidatingServer extends sdk.Server {
    protected override _wrapHandler(method: string, handler: Handler): Handler {
      const wrapped = super._wrapHandler(method, handler);
      const readable = (error: unknown): never => {
        throw readableValidationError(sdk, method, error);
      };
      // The SDK's own validation may throw before any promise exists.
      return (request, ctx) => {
        try {
          return wrapped(request, ctx).catch(readable);
        } catch (error) {
          return Promise.reject(readableValidationError(sdk, method, error));
        }
      };
    }
  }
  return ValidatingServer;
};
