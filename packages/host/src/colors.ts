/**
 * Colour for what the binaries print for people: status words and error prefixes, through
 * `util.styleText`, only on a terminal. The decision is made here, for the stream the text goes to:
 * styleText's own check (where a Node version has one) looks at stdout whatever the text's stream.
 */
import { styleText } from 'node:util';

type Env = Readonly<Record<string, string | undefined>>;

/** What a word says: each tone has one colour in every output. */
export type Tone = 'ok' | 'failed' | 'warning' | 'hidden';

/** Colours `text` in `tone`, or returns it as is when the stream gets no colour. */
export type Paint = (tone: Tone, text: string) => string;

const formats = { ok: 'green', failed: 'red', warning: 'yellow', hidden: 'dim' } as const;

/**
 * Whether text written to `stream` gets colour: `FORCE_COLOR` (anything but `0` or `false`) turns it
 * on even through a pipe and wins over the rest, as in Node's own checks; `NO_COLOR` (non-empty) and
 * `TERM=dumb` turn it off; otherwise only a terminal gets it.
 */
export const colorsOn = (stream: { readonly isTTY?: boolean }, env: Env = process.env): boolean => {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return stream.isTTY === true && env['TERM'] !== 'dumb';
};

/** The painter for one stream (`process.stdout`, `process.stderr`). */
export const painterFor = (stream: { readonly isTTY?: boolean }, env: Env = process.env): Paint =>
  colorsOn(stream, env) ? (tone, text) => styleText(formats[tone], text, { validateStream: false }) : (_tone, text) => text;

/** `promptyard-server:` before a failure on stderr, red on a terminal. */
export const errorPrefix = (program: string, paint: Paint = painterFor(process.stderr)): string => paint('failed', `${program}:`);
