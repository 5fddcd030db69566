import { describe, expect, it } from 'vitest';
import { PromptyardError } from '@promptyard/core';
import { findCommand, helpText } from './command-table.js';
import type { CommandTable } from './command-table.js';

const table: CommandTable = {
  program: 'tool',
  withoutCommand: 'the tool serves',
  strayWordHint: 'to serve a folder, pass --dir <dir>',
  options: { dir: { type: 'string' }, json: { type: 'boolean' } },
  usageError: (message) => new PromptyardError('CONFIG_INVALID', message),
  commands: [
    {
      name: 'status',
      usage: 'status [--json]',
      summary: 'Print the state.',
      options: [['--json', 'print JSON']],
      examples: ['tool status'],
    },
    { name: 'login', usage: 'login <server>', summary: 'Log in.', examples: ['tool login a', 'tool --dir x login b'] },
    {
      name: 'install',
      usage: 'install <client>',
      summary: 'Install.',
      examples: ['tool install x'],
      text: 'Usage: tool install <client>\n\nIts own help.',
    },
  ],
};

const fails = (argv: string[]): string => {
  try {
    findCommand(argv, table);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected findCommand to throw');
};

describe('findCommand', () => {
  it('finds the command before or after the options, never in an option value', () => {
    expect(findCommand(['--dir', 'x', 'status', '--json'], table)).toEqual({
      kind: 'command',
      name: 'status',
      rest: ['--dir', 'x', '--json'],
    });
    expect(findCommand(['login', 'a'], table)).toEqual({ kind: 'command', name: 'login', rest: ['a'] });
    expect(findCommand(['--dir', 'status'], table)).toEqual({ kind: 'none', rest: ['--dir', 'status'] });
    expect(findCommand([], table)).toEqual({ kind: 'none', rest: [] });
  });

  it('answers a mistyped command with the closest one, and a stray word with the hint', () => {
    expect(fails(['stauts'])).toBe(
      'Unknown command "stauts": did you mean "status"? The commands are "status", "login", "install" or "help"; with none, the tool serves.',
    );
    expect(fails(['./prompts'])).toBe(
      'Unknown command "./prompts". The commands are "status", "login", "install" or "help"; with none, the tool serves (to serve a folder, pass --dir <dir>).',
    );
    // An unknown option before the word is the likelier mistake: left to the strict parse.
    expect(findCommand(['--dri', 'x'], table)).toEqual({ kind: 'none', rest: ['--dri', 'x'] });
  });

  it('reads help and help <command>, checking the command', () => {
    expect(findCommand(['help'], table)).toEqual({ kind: 'help' });
    expect(findCommand(['help', 'login'], table)).toEqual({ kind: 'help', topic: 'login' });
    expect(findCommand(['help', 'help'], table)).toEqual({ kind: 'help' });
    expect(fails(['help', 'logni'])).toContain('Unknown command "logni": did you mean "login"?');
  });
});

describe('helpText', () => {
  it("prints the binary's usage, or one command's usage, options and examples", () => {
    expect(helpText(table, 'Usage: tool', undefined)).toBe('Usage: tool');
    expect(helpText(table, 'Usage: tool', 'status')).toBe(
      [
        'Usage: tool [options] status [--json]',
        '',
        'Print the state.',
        '',
        'Options:',
        '  --json                   print JSON',
        '',
        'The options every command takes (--config …) are in tool --help.',
        '',
        'Example:',
        '  tool status',
      ].join('\n'),
    );
    expect(helpText(table, 'Usage: tool', 'install')).toBe('Usage: tool install <client>\n\nIts own help.\n\nExample:\n  tool install x');
    expect(helpText(table, 'Usage: tool', 'login')).toMatch(/Examples:\n {2}tool login a\n {2}tool --dir x login b$/);
  });
});
