/**
 * A fast path for the plain frontmatter most prompt files have: block mappings and sequences whose
 * leaves are unquoted words, simple quoted strings, small integers or one-line `[a, 'b']` lists. For
 * such input it returns exactly what `yaml`'s `parse` (core schema) returns; for anything else it
 * returns `undefined` and the caller uses `yaml`, which costs far more per small document.
 */

interface Line {
  readonly indent: number;
  readonly text: string;
}

/** Thrown inside the parser to give up and let `yaml` decide. */
const notSimple = Symbol('not simple');

const keyPattern = /^[A-Za-z_][\w./-]*$/;
const integerPattern = /^[0-9]{1,15}$/;
const booleans: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);
const nulls: ReadonlySet<string> = new Set(['null', 'Null', 'NULL']);

const isLetter = (code: number): boolean => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

const isControl = (code: number): boolean => code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0xfeff || code >= 0xfffe;

const hasControl = (text: string): boolean => {
  for (let index = 0; index < text.length; index++) if (isControl(text.charCodeAt(index))) return true;
  return false;
};

/**
 * Starts with a letter; no comment or mapping (a `:` only inside a word, as in `Bash(git:*)` or a
 * URL, outside flow lists), and in a flow list no collection or quote characters.
 */
const isPlainText = (text: string, flow: boolean): boolean => {
  if (!isLetter(text.charCodeAt(0))) return false;
  for (let index = 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isControl(code) || code === 0x23 /* # */) return false;
    if (code === 0x3a /* : */ && (flow || index === text.length - 1 || text.charCodeAt(index + 1) === 0x20)) return false;
    if (flow && (code === 0x2c || code === 0x5b || code === 0x5d || code === 0x7b || code === 0x7d || code === 0x22 || code === 0x27)) {
      return false;
    }
  }
  return true;
};

const plainScalar = (text: string, flow: boolean): unknown => {
  if (integerPattern.test(text)) return Number.parseInt(text, 10);
  if (!isPlainText(text, flow)) throw notSimple;
  const boolean = booleans.get(text);
  if (boolean !== undefined) return boolean;
  return nulls.has(text) ? null : text;
};

const doubleQuoted = (text: string): string => {
  const content = text.slice(1, -1);
  if (text.length < 2 || !text.endsWith('"') || content.includes('"') || content.includes('\\') || hasControl(content)) throw notSimple;
  return content;
};

const singleQuoted = (text: string): string => {
  if (text.length < 2 || !text.endsWith("'")) throw notSimple;
  const content = text.slice(1, -1);
  if (hasControl(content)) throw notSimple;
  for (let index = content.indexOf("'"); index !== -1; index = content.indexOf("'", index + 2)) {
    if (content[index + 1] !== "'") throw notSimple;
  }
  return content.replaceAll("''", "'");
};

/** An item of a one-line `[a, 'b', "c"]` list. */
const flowItem = (text: string): unknown => {
  if (text[0] === '"') return doubleQuoted(text);
  if (text[0] === "'") return singleQuoted(text);
  return plainScalar(text, true);
};

const inlineValue = (text: string): unknown => {
  switch (text[0]) {
    case '"':
      return doubleQuoted(text);
    case "'":
      return singleQuoted(text);
    case '[': {
      if (!text.endsWith(']')) throw notSimple;
      const inner = text.slice(1, -1).trim();
      // A quoted item holding a comma is split apart here, and its halves are not quoted strings.
      return inner === '' ? [] : inner.split(',').map((item) => flowItem(item.trim()));
    }
    default:
      return plainScalar(text, false);
  }
};

const isSequenceItem = (text: string): boolean => text === '-' || text.startsWith('- ');

/** `key: rest` → [key, rest]; undefined when the line is no mapping entry at all. */
const splitKey = (text: string): [string, string] | undefined => {
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  if (colon + 1 < text.length && text[colon + 1] !== ' ') return undefined;
  const key = text.slice(0, colon);
  if (!keyPattern.test(key) || booleans.has(key) || nulls.has(key) || key === '__proto__') throw notSimple;
  return [key, text.slice(colon + 1).trimStart()];
};

/** Non-blank lines with their indentation; tabs, comments and carriage returns are not simple. */
const toLines = (source: string): Line[] => {
  const lines: Line[] = [];
  for (let start = 0; start < source.length;) {
    let end = source.indexOf('\n', start);
    if (end === -1) end = source.length;
    let first = start;
    while (first < end && source.charCodeAt(first) === 0x20) first++;
    let last = end;
    // A carriage return is fine only as part of CRLF.
    if (last > start && source.charCodeAt(last - 1) === 0x0d) {
      if (end === source.length) throw notSimple;
      last = Math.max(first, last - 1);
    }
    while (last > first && source.charCodeAt(last - 1) === 0x20) last--;
    if (last > first) {
      const text = source.slice(first, last);
      if (text.includes('\t') || text.includes('\r') || text[0] === '#') throw notSimple;
      lines.push({ indent: first - start, text });
    }
    start = end + 1;
  }
  return lines;
};

const parseLines = (lines: Line[]): Record<string, unknown> => {
  let next = 0;

  const mapping = (indent: number): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    while (next < lines.length && (lines[next] as Line).indent === indent) {
      const entry = splitKey((lines[next] as Line).text);
      if (entry === undefined) throw notSimple;
      const [key, rest] = entry;
      if (Object.hasOwn(result, key)) throw notSimple;
      next++;
      let value: unknown = null;
      const following = lines[next];
      if (rest !== '') {
        value = inlineValue(rest);
        // A more-indented line after a scalar continues it (or is an error): not simple.
        if (following !== undefined && following.indent > indent) throw notSimple;
      } else if (following !== undefined && following.indent > indent) {
        value = block(following.indent);
      } else if (following !== undefined && following.indent === indent && isSequenceItem(following.text)) {
        value = sequence(indent);
      }
      result[key] = value;
    }
    return result;
  };

  const sequence = (indent: number): unknown[] => {
    const result: unknown[] = [];
    for (let line = lines[next]; line !== undefined && line.indent === indent && isSequenceItem(line.text); line = lines[next]) {
      if (line.text === '-') throw notSimple;
      let offset = 1;
      while (line.text[offset] === ' ') offset++;
      const content = line.text.slice(offset);
      if (isSequenceItem(content)) throw notSimple;
      if (splitKey(content) !== undefined) {
        // `- name: x` opens a mapping whose keys line up with `name`.
        lines[next] = { indent: indent + offset, text: content };
        result.push(mapping(indent + offset));
      } else {
        result.push(inlineValue(content));
        next++;
        const following = lines[next];
        if (following !== undefined && following.indent > indent) throw notSimple;
      }
    }
    return result;
  };

  const block = (indent: number): unknown => (isSequenceItem((lines[next] as Line).text) ? sequence(indent) : mapping(indent));

  if (lines.length === 0) throw notSimple; // yaml returns null or '' here
  if ((lines[0] as Line).indent !== 0) throw notSimple;
  const result = mapping(0);
  if (next !== lines.length) throw notSimple;
  return result;
};

/** The mapping `source` holds, when it is simple enough; otherwise undefined (use `yaml`). */
export const parseSimpleYaml = (source: string): Record<string, unknown> | undefined => {
  try {
    return parseLines(toLines(source));
  } catch (error) {
    if (error === notSimple) return undefined;
    throw error;
  }
};
