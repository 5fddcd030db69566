import { locateKey } from '@promptyard/core';

// Where a value of gateway.toml is written, by its path from the top of the document.

/**
 * The line of `path` (`["profiles", "coding", "servers", "github", "tools"]`) in TOML text: its own
 * `[table]` header or `key =` line (dotted keys and inline tables included), else the nearest
 * enclosing one's; 0 when nothing of it is written.
 */
export const locateTomlPath = (text: string, path: readonly string[]): number => {
  for (let end = path.length; end > 0; end--) {
    const header = locateKey(text, path.slice(0, end).join('.'));
    if (header > 0) return header;
    for (let split = end - 1; split >= 0; split--) {
      const line = locateKey(text, path.slice(0, split).join('.'), path.slice(split, end).join('.'));
      if (line > 0) return line;
    }
    const nested = firstHeaderUnder(text, path.slice(0, end).join('.'));
    if (nested > 0) return nested;
  }
  return 0;
};

/** The first header of a table inside `section` (`[profiles.coding.servers.github]` for `profiles.coding`); 0 when none. */
const firstHeaderUnder = (text: string, section: string): number => {
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?/.exec(lines[index] as string);
    if (
      header &&
      (header[1] as string)
        .replace(/\s*\.\s*/g, '.')
        .replace(/"/g, '')
        .startsWith(`${section}.`)
    )
      return index + 1;
  }
  return 0;
};

/** The line of `key` in the `index`th (from 0) `[[name]]` table, else of that table's header; 0 when there is none. */
export const locateArrayTableKey = (text: string, name: string, index: number, key?: string): number => {
  const lines = text.split(/\r?\n/);
  const header = new RegExp(`^\\s*\\[\\[\\s*"?${name}"?\\s*\\]\\]`);
  let seen = -1;
  let start = 0;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    if (header.test(line)) {
      seen++;
      if (seen === index) start = at + 1;
      else if (seen > index) break;
      continue;
    }
    if (seen !== index) continue;
    if (/^\s*\[/.test(line)) break;
    if (key !== undefined && new RegExp(`^\\s*"?${key}"?\\s*=`).test(line)) return at + 1;
  }
  return start;
};
