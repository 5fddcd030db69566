import { createHash } from 'node:crypto';
import { PromptyardError } from '@promptyard/core';

/** Longest tool / prompt name many clients accept (OpenAI-style function names). */
export const MAX_NAME_LENGTH = 64;

/** Characters the MCP spec allows in tool names. */
export const NAME_CHARACTERS = /^[A-Za-z0-9_.-]+$/;

/**
 * Marks a shortened or repaired name: `<cut>-<6 base32 chars>`. The brief suggested `~`, but `~` is
 * not a legal tool-name character, so clients that validate names would reject every shortened one.
 */
const HASH_MARKER = '-';
const HASH_LENGTH = 6;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export interface Namer {
  /**
   * `<prefix><separator><name>`, or `name` when prefix is false. A result longer than the limit, or
   * with characters outside `A-Za-z0-9_.-` (replaced by `_`), is cut and gets `-` + 6 lowercase
   * base32 chars of a SHA-256 of the full original, so distinct inputs stay distinct. Deterministic.
   */
  encode(prefix: string | false, name: string): string;
}

/** 30 bits of SHA-256, as 6 lowercase base32 characters. */
export const shortHash = (text: string): string => {
  const bytes = createHash('sha256').update(text, 'utf8').digest();
  let bits = bytes.readUInt32BE(0);
  let out = '';
  for (let index = 0; index < HASH_LENGTH; index++) {
    out += BASE32[bits & 31];
    bits >>>= 5;
  }
  return out;
};

export const createNamer = (options: {
  separator: string;
  maxLength?: number;
  /** Replace characters outside A-Za-z0-9_.- (tool names); prompt names may keep theirs (`git/commit`). Default true. */
  sanitize?: boolean;
}): Namer => {
  const sanitize = options.sanitize ?? true;
  const { separator } = options;
  const maxLength = options.maxLength ?? MAX_NAME_LENGTH;
  if (!NAME_CHARACTERS.test(separator)) {
    throw new PromptyardError(
      'CONFIG_INVALID',
      `Name separator ${JSON.stringify(separator)} is not allowed: use one or more of A-Z a-z 0-9 _ - . (for example "_" or "__").`,
    );
  }
  if (!Number.isInteger(maxLength) || maxLength < HASH_LENGTH + 2) {
    throw new PromptyardError('CONFIG_INVALID', `Name length limit ${maxLength} is too small: use at least ${HASH_LENGTH + 2}.`);
  }
  const budget = maxLength - HASH_MARKER.length - HASH_LENGTH;
  return {
    encode(prefix, name) {
      const full = prefix === false ? name : `${prefix}${separator}${name}`;
      const safe = sanitize ? full.replace(/[^A-Za-z0-9_.-]/gu, '_') : full;
      if (safe === full && full.length > 0 && full.length <= maxLength) return full;
      // `safe` starts with the sanitised prefix and separator, so cutting its end keeps them.
      return `${safe.slice(0, budget)}${HASH_MARKER}${shortHash(full)}`;
    },
  };
};

/**
 * The URI scheme standing for a server: lowercase, characters other than letters, digits, `-` and
 * `.` become `-` (`+` too: it separates the server from the original URI), and `s` in front when it
 * does not start with a letter. `My_Server` → `my-server`, `1password` → `s1password`.
 */
export const uriScheme = (prefix: string): string => {
  const mapped = prefix.toLowerCase().replace(/[^a-z0-9.-]/gu, '-');
  return /^[a-z]/.test(mapped) ? mapped : `s${mapped}`;
};

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** `file:///a` from server `fs` → `fs+file:///a`; a URI without a scheme → `fs+:<uri>`. */
export const encodeUri = (prefix: string, uri: string): string => `${uriScheme(prefix)}+${SCHEME.test(uri) ? '' : ':'}${uri}`;

/** Same as {@link encodeUri}, for templates such as `file:///{path}` or `{+uri}`. */
export const encodeUriTemplate = (prefix: string, template: string): string => encodeUri(prefix, template);

/**
 * The server prefix and original URI of a namespaced URI, or undefined when it was not made by
 * {@link encodeUri} for one of `knownPrefixes`. When two prefixes map to one scheme, the first wins
 * (the gateway config refuses such pairs).
 */
export const decodeUri = (namespaced: string, knownPrefixes: Iterable<string>): { prefix: string; uri: string } | undefined => {
  const plus = namespaced.indexOf('+');
  if (plus <= 0) return undefined;
  const scheme = namespaced.slice(0, plus).toLowerCase();
  const rest = namespaced.slice(plus + 1);
  let uri: string;
  if (rest.startsWith(':')) uri = rest.slice(1);
  else if (SCHEME.test(rest)) uri = rest;
  else return undefined;
  for (const prefix of knownPrefixes) {
    if (uriScheme(prefix) === scheme) return { prefix, uri };
  }
  return undefined;
};
