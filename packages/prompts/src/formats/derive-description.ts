const maxLength = 200;

const cut = (text: string): string => {
  if (text.length <= maxLength) return text;
  // Never split a surrogate pair.
  const code = text.charCodeAt(maxLength - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? maxLength - 1 : maxLength;
  return text.slice(0, end).trimEnd();
};

const isSpace = (char: string | undefined): boolean => char === ' ' || char === '\t';

/** The text of an ATX heading (`## Review  ##` → "Review"), or undefined for any other line. */
const headingText = (line: string): string | undefined => {
  let level = 0;
  while (level < line.length && line[level] === '#') level++;
  if (level === 0 || level > 6) return undefined;
  if (level < line.length && !isSpace(line[level])) return undefined;
  let end = line.length;
  // Drop an optional closing sequence of #s, when it is separated by a space.
  let hashes = end;
  while (hashes > level && line[hashes - 1] === '#') hashes--;
  if (hashes < end && (hashes === level || isSpace(line[hashes - 1]))) end = hashes;
  return line.slice(level, end).trim();
};

/**
 * A description for a prompt whose frontmatter has none: the first Markdown heading (outside code
 * fences), else the first non-empty line, cut to 200 characters; `Prompt <name>` for an empty body.
 * Scans line by line with indexOf, so large bodies cost linear time.
 */
export const deriveDescription = (body: string, name: string): string => {
  let firstLine: string | undefined;
  let fence: string | undefined;
  let start = 0;
  while (start < body.length) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const line = body.slice(start, end).trim();
    start = end + 1;
    if (line === '') continue;
    firstLine ??= line;
    if (fence !== undefined) {
      if (line.startsWith(fence)) fence = undefined;
      continue;
    }
    if (line.startsWith('```') || line.startsWith('~~~')) {
      fence = line.slice(0, 3);
      continue;
    }
    const heading = headingText(line);
    if (heading !== undefined && heading !== '') return cut(heading);
  }
  return firstLine === undefined ? `Prompt ${name}` : cut(firstLine);
};
