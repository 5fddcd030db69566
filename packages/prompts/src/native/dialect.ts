/** A body compiled for one placeholder dialect: the arguments it reads and how it fills them in. */
export interface DialectTemplate {
  /** Argument names the body uses, in order of first use. */
  readonly variables: readonly string[];
  render(args: Readonly<Record<string, string>>): string;
}

/** The value of an argument, or undefined when absent (inherited names such as `constructor` are absent). */
export const argumentValue = (args: Readonly<Record<string, string>>, name: string): string | undefined =>
  Object.hasOwn(args, name) ? args[name] : undefined;

/** The free-text argument every `$ARGUMENTS`-style prompt takes. */
export const freeTextName = 'arguments';

/**
 * Splits free text into words the way a shell would for simple input: spaces separate, quotes group,
 * and quoted parts join the text around them (`TITLE="Add hero"` is one word, `TITLE=Add hero`).
 */
export const splitWords = (text: string): string[] => {
  const words: string[] = [];
  const pattern = /(?:"([^"]*)"|'([^']*)'|([^\s"']+)|(["']))+/g;
  for (const match of text.matchAll(pattern)) {
    let word = '';
    for (const part of match[0].matchAll(/"([^"]*)"|'([^']*)'|([^"']+)|(["'])/g)) word += part[1] ?? part[2] ?? part[3] ?? part[4] ?? '';
    words.push(word);
  }
  return words;
};
