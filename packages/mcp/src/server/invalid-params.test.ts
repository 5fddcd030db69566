import { describe, expect, it } from 'vitest';
import * as sdk from '@modelcontextprotocol/server';
import { describeIssues, parseIssues, readableValidationError } from './invalid-params.js';

const dump = (issues: unknown[]): string => JSON.stringify(issues, null, 2);

describe('readable validation errors', () => {
  it('says in one sentence what is wrong with the params', () => {
    const cases: [unknown[], string][] = [
      [
        [
          {
            expected: 'string',
            code: 'invalid_type',
            path: ['params', 'name'],
            message: 'Invalid input: expected string, received number',
          },
        ],
        '"name" must be a string, not a number',
      ],
      [
        [
          {
            expected: 'record',
            code: 'invalid_type',
            path: ['params', 'arguments'],
            message: 'Invalid input: expected record, received array',
          },
        ],
        '"arguments" must be an object of names and values, not an array',
      ],
      [
        [
          {
            expected: 'string',
            code: 'invalid_type',
            path: ['params', 'arguments', 'code'],
            message: 'Invalid input: expected string, received object',
          },
        ],
        'argument "code" must be a string, not an object',
      ],
      [
        [
          {
            expected: 'string',
            code: 'invalid_type',
            path: ['params', 'name'],
            message: 'Invalid input: expected string, received undefined',
          },
        ],
        '"name" is missing: it must be a string',
      ],
      [
        [{ expected: 'object', code: 'invalid_type', path: ['params'], message: 'Invalid input: expected object, received undefined' }],
        'params are missing: send an object',
      ],
      [
        [{ code: 'invalid_value', values: ['ref/resource'], path: ['params', 'ref', 'type'], message: 'Invalid input' }],
        '"ref.type" must be "ref/resource"',
      ],
      [
        [{ code: 'too_big', path: ['params', 'items', 0], message: 'Too big: expected string to have <=3 characters' }],
        '"items[0]": Too big: expected string to have <=3 characters',
      ],
    ];
    for (const [issues, sentence] of cases)
      expect(describeIssues('prompts/get', issues as never)).toBe(`Invalid prompts/get request: ${sentence}.`);
  });

  it('follows the union branch that got furthest, and counts the other problems', () => {
    const union = {
      code: 'invalid_union',
      path: ['params', 'ref'],
      message: 'Invalid input',
      errors: [
        [{ code: 'invalid_value', values: ['ref/resource'], path: ['type'], message: 'Invalid input' }],
        [{ expected: 'string', code: 'invalid_type', path: ['name'], message: 'Invalid input: expected string, received number' }],
      ],
    };
    const other = {
      expected: 'object',
      code: 'invalid_type',
      path: ['params', 'argument'],
      message: 'Invalid input: expected object, received undefined',
    };
    expect(describeIssues('completion/complete', [union, other] as never)).toBe(
      'Invalid completion/complete request: "ref.type" must be "ref/resource" (and 1 more problem).',
    );
  });

  it("maps the SDK's validation failures to -32602 and leaves other errors alone", () => {
    const issues = [
      { expected: 'string', code: 'invalid_type', path: ['params', 'uri'], message: 'Invalid input: expected string, received number' },
    ];
    const plain = readableValidationError(sdk, 'resources/read', new Error(dump(issues)));
    expect(plain).toBeInstanceOf(sdk.ProtocolError);
    expect(plain).toMatchObject({ code: -32602, message: 'Invalid resources/read request: "uri" must be a string, not a number.' });
    const prefixed = readableValidationError(
      sdk,
      'tools/call',
      new sdk.ProtocolError(-32602, `Invalid tools/call request: ${dump(issues)}`),
    );
    expect(prefixed).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid tools\/call request: "uri"/) });
    const internal = new sdk.ProtocolError(-32603, dump(issues));
    expect(readableValidationError(sdk, 'prompts/get', internal)).toBe(internal);
    const ours = new Error('prompt "x" not found [see prompts/list]');
    expect(readableValidationError(sdk, 'prompts/get', ours)).toBe(ours);
    expect(parseIssues('[1, 2]')).toBeUndefined();
  });
});
