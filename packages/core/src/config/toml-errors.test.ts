import { parse, TomlError } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { describeTomlError, tomlErrorLine } from './toml-errors.js';

const syntaxError = (source: string): unknown => {
  try {
    parse(source);
  } catch (error) {
    return error;
  }
  throw new Error('expected a TOML syntax error');
};

describe('describeTomlError', () => {
  it('names the file, line and column and keeps the parser snippet with its caret', () => {
    const error = syntaxError('[server]\nname = unq\n');
    expect(error).toBeInstanceOf(TomlError);
    const text = describeTomlError(error, 'unq.toml');
    const lines = text.split('\n');
    expect(lines[0]).toBe('unq.toml:2:8: invalid TOML: invalid value');
    expect(lines).toContain('    2:  name = unq');
    // The caret stands under the column the parser names.
    const caret = lines.at(-1) as string;
    expect(caret.trim()).toBe('^');
    expect(caret.indexOf('^')).toBe('    2:  name = '.length);
    expect(tomlErrorLine(error)).toBe(2);
  });

  it('falls back to file: reason for other errors', () => {
    expect(describeTomlError(new Error('boom'), 'x.toml')).toBe('x.toml: boom');
    expect(tomlErrorLine(new Error('boom'))).toBeUndefined();
  });

  it('is what loadConfig reports for a config file with a syntax error', async () => {
    const error = await loadConfig({}, { file: 'promptyard.toml', source: 'a = 1\nb = unq\n' }).catch((caught: unknown) => caught as Error);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect((error as Error).message).toMatch(
      /^Invalid configuration:\n {2}promptyard\.toml:2:5: invalid TOML: invalid value\n {4}1: {2}a = 1\n {4}2: {2}b = unq\n {4} +\^$/,
    );
  });
});
