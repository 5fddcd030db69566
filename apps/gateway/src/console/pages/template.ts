/**
 * The console's one way to build HTML: the `html` tagged template escapes every interpolated value
 * unless it is HTML already — a fragment `html` itself made, or one `raw()` made on purpose (after
 * honojs/hono's `html` helper). Arrays of values join with nothing between; `null`, `undefined` and
 * `false` render nothing; numbers as written. A fragment is an object only this module can make (the
 * brand is a private field), so no string, and no object read from elsewhere, passes as HTML.
 */

const entities: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in element content and in double- or single-quoted attributes. */
const escape = (text: string): string => text.replace(/[&<>"']/g, (char) => entities[char] ?? char);

/** A piece of HTML, written as it is wherever it is interpolated; its text is `String(fragment)`. */
class Fragment {
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  static is(value: unknown): value is Fragment {
    return typeof value === 'object' && value !== null && #text in value;
  }

  toString(): string {
    return this.#text;
  }
}

export type Html = Fragment;

/** What may be interpolated: HTML, text and numbers (escaped), nothing (`null`, `undefined`, `false`), and arrays of these. */
export type HtmlValue = Html | string | number | false | null | undefined | readonly HtmlValue[];

const write = (value: HtmlValue): string => {
  if (value === null || value === undefined || value === false) return '';
  if (Fragment.is(value)) return value.toString();
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(write).join('');
  // Text and numbers, and whatever else reaches here past the types: escaped.
  return escape(String(value));
};

/** HTML from a template: the literal parts as written, every value escaped unless it is HTML already. */
export const html = (strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html => {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += write(value) + (strings[index + 1] ?? '');
  });
  return new Fragment(text);
};

/** `text` as HTML, unescaped: only for markup the console itself holds (a fixed snippet), never for what it reads. */
export const raw = (text: string): Html => new Fragment(text);
