import { describe, expect, it } from 'vitest';
import { colorsOn, errorPrefix, painterFor } from './colors.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('colorsOn', () => {
  it('colours a terminal only, unless NO_COLOR, TERM=dumb or FORCE_COLOR say otherwise', () => {
    expect(colorsOn(tty, {})).toBe(true);
    expect(colorsOn(pipe, {})).toBe(false);
    expect(colorsOn(tty, { NO_COLOR: '1' })).toBe(false);
    // An empty NO_COLOR is no request (no-color.org).
    expect(colorsOn(tty, { NO_COLOR: '' })).toBe(true);
    expect(colorsOn(tty, { TERM: 'dumb' })).toBe(false);
    expect(colorsOn(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorsOn(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(colorsOn(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorsOn(tty, { FORCE_COLOR: 'false' })).toBe(false);
    // As in Node's own checks, FORCE_COLOR wins over NO_COLOR.
    expect(colorsOn(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
  });
});

describe('painterFor', () => {
  it('styles each tone with its colour, or leaves the text alone', () => {
    const paint = painterFor(pipe, { FORCE_COLOR: '1' });
    expect(paint('ok', 'ready')).toBe('\u001b[32mready\u001b[39m');
    expect(paint('failed', 'failed')).toBe('\u001b[31mfailed\u001b[39m');
    expect(paint('warning', 'warning')).toBe('\u001b[33mwarning\u001b[39m');
    expect(paint('hidden', 'off')).toBe('\u001b[2moff\u001b[22m');
    expect(painterFor(tty, { NO_COLOR: '1' })('failed', 'failed')).toBe('failed');
    expect(errorPrefix('promptyard-server', paint)).toBe('\u001b[31mpromptyard-server:\u001b[39m');
    expect(errorPrefix('promptyard-server', painterFor(pipe, {}))).toBe('promptyard-server:');
  });
});
