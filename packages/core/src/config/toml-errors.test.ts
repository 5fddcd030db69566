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

  it('masks an unterminated secret value, keeping the caret under its column', () => {
    const text = describeTomlError(syntaxError('[auth]\nauth_token = "s3cr3t-value\nx = 1\n'), 'secret.toml');
    expect(text).not.toContain('s3cr3t');
    const lines = text.split('\n');
    expect(lines).toContain('    2:  auth_token = "************');
    expect(lines).toContain('    3:  x = 1');
    const caret = lines.find((line) => line.trim() === '^') as string;
    expect(caret.indexOf('^')).toBe(`    2:  auth_token = "s3cr3t-value`.length);
  });

  it('masks the values of an inline table of headers, and leaves other lines alone', () => {
    const source = '[servers.api]\nurl = "https://example.test"\nheaders = { Authorization = "Bearer abc123", X = unq }\n';
    const text = describeTomlError(syntaxError(source), 'headers.toml');
    expect(text).not.toContain('abc123');
    const lines = text.split('\n');
    expect(lines).toContain('    2:  url = "https://example.test"');
    expect(lines).toContain('    3:  headers = { Authorization = "*************", X = unq }');
    const caret = lines.at(-1) as string;
    expect(caret.indexOf('^')).toBe('    3:  headers = { Authorization = "Bearer abc123", X = '.length);
  });

  it('masks a secret under a key that is not one itself', () => {
    const text = describeTomlError(syntaxError('[s]\nname = "ok"\nsmtp = { Password = \'hunter2\', x = }\n'), 'p.toml');
    expect(text).toContain("    3:  smtp = { Password = '*******', x = }");
    expect(text).toContain('    2:  name = "ok"');
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
