import { describe, expect, it } from 'vitest';
import { parseCli } from './args.js';

const fails = (argv: string[]): string => {
  try {
    parseCli(argv, {});
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected parseCli to throw');
};

describe('parseCli', () => {
  it('takes a subcommand before or after the options', () => {
    for (const argv of [
      ['list', '--prompts', 'x'],
      ['--prompts', 'x', 'list'],
      ['-p', 'x', 'list', '--no-watch'],
    ]) {
      expect(parseCli(argv, {})).toMatchObject({ command: { kind: 'list' }, overrides: { prompts: ['x'] } });
    }
    expect(parseCli(['--prompts', 'x', 'render', 'review', '--arg', 'code=1'], {}).command).toEqual({
      kind: 'render',
      name: 'review',
      args: { code: '1' },
    });
    expect(parseCli(['-p', 'x', 'validate', '--strict'], {}).command).toEqual({ kind: 'validate', strict: true });
    expect(parseCli(['list', '--versions'], {}).command).toEqual({ kind: 'list', versions: true });
    expect(parseCli(['versions', 'review', '--frozen'], {})).toMatchObject({
      command: { kind: 'versions', name: 'review' },
      overrides: { frozen: true },
    });
    expect(parseCli(['lock'], {}).command).toEqual({ kind: 'lock' });
    expect(fails(['versions'])).toContain('versions takes one prompt name');
    // An option's value is not a command, even when it is spelled like one.
    expect(parseCli(['--prompts', 'list'], {})).toMatchObject({ overrides: { prompts: ['list'] } });
    expect(parseCli(['--prompts', 'list'], {}).command).toBeUndefined();
  });

  it('suggests the closest command for a mistyped one', () => {
    expect(fails(['lsit'])).toMatch(
      /^Unknown command "lsit": did you mean "list"\? The commands are "list", "render", "validate", "sync", "lock", "versions", "schema", "install", "uninstall" or "help"; with none, the server starts\./,
    );
    expect(fails(['--prompts', 'x', 'valdiate'])).toContain('did you mean "validate"?');
    expect(fails(['./prompts'])).toContain('to serve a folder, pass --prompts <dir>');
  });

  it('reads schema wherever it stands, and help on it', () => {
    expect(parseCli(['schema'], {})).toMatchObject({ schema: true, help: false });
    expect(parseCli(['--log-level', 'debug', 'schema'], {})).toMatchObject({ schema: true });
    expect(parseCli(['help', 'schema'], {})).toMatchObject({ help: true, helpCommand: 'schema' });
    expect(parseCli(['schema', '--help'], {})).toMatchObject({ help: true, helpCommand: 'schema' });
    expect(fails(['schem'])).toContain('Unknown command "schem": did you mean "schema"?');
    expect(fails(['schema', 'extra'])).toContain('Unexpected argument');
  });

  it('reports an unknown option before a stray word, and options of another command', () => {
    expect(fails(['--promts', 'x'])).toContain("Unknown option '--promts'");
    expect(fails(['list', '--strict'])).toContain("Unknown option '--strict'");
  });

  it('reads help for one command: help <command>, <command> --help and -h', () => {
    expect(parseCli(['help', 'render'], {})).toMatchObject({ help: true, helpCommand: 'render' });
    expect(parseCli(['render', '--help'], {})).toMatchObject({ help: true, helpCommand: 'render' });
    expect(parseCli(['-p', 'x', 'validate', '-h'], {})).toMatchObject({ help: true, helpCommand: 'validate' });
    expect(parseCli(['--help'], {})).toMatchObject({ help: true });
    expect(parseCli(['--help'], {}).helpCommand).toBeUndefined();
    expect(fails(['help', 'rendr'])).toContain('did you mean "render"?');
  });

  it('reads --log-format', () => {
    expect(parseCli(['--log-format', 'json'], {}).overrides).toEqual({ logFormat: 'json' });
    expect(fails(['--log-format', 'xml'])).toContain('--log-format must be text or json; got "xml"');
  });

  it('hands install and uninstall their arguments, the command first, wherever it stands', () => {
    expect(parseCli(['-c', 'p.toml', 'install', 'cursor', '--dry-run'], {}).clientArgs).toEqual([
      'install',
      '-c',
      'p.toml',
      'cursor',
      '--dry-run',
    ]);
    expect(fails(['instal'])).toContain('did you mean "install"?');
  });
});
