/**
 * Prompty's role lines, read as its chat parser reads them (microsoft/prompty
 * runtime/typescript/packages/core/src/parsers/prompty.ts at 75e4d0e5): `system:`, `user:`,
 * `assistant:` or `developer:` alone on a line, optionally after `#` and with attributes
 * (`user[name="Alice", id=7]:`), split a rendered body into messages.
 */
export type SectionRole = 'system' | 'user' | 'assistant' | 'developer';

/** A role line's attributes, typed as Prompty types them (`true`/`false`, whole and decimal numbers). */
type RoleAttributes = Readonly<Record<string, string | number | boolean>>;

export interface RoleSection {
  readonly role: SectionRole;
  readonly text: string;
  /** Lines before this section's text in the body. */
  readonly lineOffset: number;
  /** The role line's attributes, when it has some. */
  readonly attributes?: RoleAttributes;
}

// Prompty's BOUNDARY_RE: one `[^\]]*` after an attribute-like start, which cannot backtrack badly.
const roleLine = /^\s*#?\s*(assistant|developer|system|user)(\[\w+\s*=\s*[^\]]*\])?\s*:\s*$/i;
const attributePattern = /(\w+)\s*=\s*"?([^",]*)"?/g;

/** Prompty's `parseAttrs`: `key=value` pairs, quoted or not; `nonce` is its own and dropped. */
const parseAttributes = (raw: string): RoleAttributes => {
  const attributes: Record<string, string | number | boolean> = {};
  for (const [, key = '', rawValue = ''] of raw.slice(1, -1).matchAll(attributePattern)) {
    const value = rawValue.trim();
    if (key === 'nonce') continue;
    if (value.toLowerCase() === 'true' || value.toLowerCase() === 'false') attributes[key] = value.toLowerCase() === 'true';
    else if (/^\d+$/.test(value)) attributes[key] = Number.parseInt(value, 10);
    else if (/^\d+\.\d+$/.test(value)) attributes[key] = Number.parseFloat(value);
    else attributes[key] = value;
  }
  return attributes;
};

/** Leading and trailing newlines off, as Prompty trims a message (spaces and indentation stay). */
const trimNewlines = (text: string): string => text.replace(/^\n+/, '').replace(/\n+$/, '');

/**
 * The messages a body splits into at its role lines. Text before the first role line belongs to
 * `leadingRole` (`system`, as in Prompty). As in Prompty, a role line splits wherever it stands, in
 * a code fence too.
 */
export const splitRoleSections = (body: string, leadingRole: SectionRole = 'system'): RoleSection[] => {
  const lines = body.split('\n');
  const sections: RoleSection[] = [];
  let role: SectionRole = leadingRole;
  let attributes: RoleAttributes | undefined;
  let start = 0;
  const flush = (end: number): void => {
    if (end <= start) return;
    const text = trimNewlines(lines.slice(start, end).join('\n'));
    sections.push({ role, text, lineOffset: start, ...(attributes === undefined ? {} : { attributes }) });
  };
  lines.forEach((line, index) => {
    const match = roleLine.exec(line.trim());
    if (match === null) return;
    flush(index);
    role = (match[1] ?? 'user').toLowerCase() as SectionRole;
    const parsed = match[2] === undefined ? undefined : parseAttributes(match[2]);
    attributes = parsed === undefined || Object.keys(parsed).length === 0 ? undefined : parsed;
    start = index + 1;
  });
  flush(lines.length);
  return sections;
};
