import { createRequire } from 'node:module';
import type Picomatch from 'picomatch';

/** picomatch (CommonJS, POSIX paths), loaded by the first glob: a gateway without filters never loads it. */
let picomatch: typeof Picomatch | undefined;
const loadPicomatch = (): typeof Picomatch => (picomatch ??= createRequire(import.meta.url)('picomatch/posix.js') as typeof Picomatch);

/** One glob syntax for names and URIs, as `[[policy]]` has it: `*` any run (`/` included), `?`, `[ab]`, `{a,b}`. */
const options = { bash: true, dot: true, nobrace: false, noextglob: true } as const;

/**
 * A list of globs as one test: a name passes when a positive glob matches it (or there are none but
 * exclusions) and no `!glob` does. `[]` passes nothing; `["*"]` everything.
 */
export const compileGlobList = (globs: readonly string[]): ((name: string) => boolean) => {
  const positive = globs.filter((glob) => !glob.startsWith('!'));
  const negative = globs.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1));
  if (positive.length === 0 && negative.length === 0) return () => false;
  if (positive.length === 1 && positive[0] === '*' && negative.length === 0) return () => true;
  const load = loadPicomatch();
  const include = positive.length === 0 ? () => true : load(positive, options);
  const exclude = negative.length === 0 ? () => false : load(negative, options);
  return (name) => include(name) && !exclude(name);
};

const pairs: Readonly<Record<string, string>> = { '{': '}', '[': ']', '(': ')' };

/** The first bracket, brace or parenthesis left open or closed without opening, outside escapes. */
const unbalanced = (glob: string): string | undefined => {
  const open: string[] = [];
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] as string;
    if (char === '\\') {
      index++;
      continue;
    }
    if (pairs[char] !== undefined) open.push(char);
    else if (char === '}' || char === ']' || char === ')') {
      const last = open.pop();
      if (last === undefined || pairs[last] !== char) return char;
    }
  }
  return open.at(-1);
};

/**
 * Why `glob` is not a glob the gateway can use, in words for the config's author; `undefined` when it
 * is. A glob that does not parse (an unclosed `{`, `[`) or cannot match any name (empty, a lone `!`,
 * whitespace in a tool or prompt name, an empty `{}` or `[]`) is refused rather than silently
 * matching nothing.
 */
export const globProblem = (glob: string, what: 'name' | 'uri'): string | undefined => {
  const body = glob.startsWith('!') ? glob.slice(1) : glob;
  if (body.trim() === '') return `${JSON.stringify(glob)} matches nothing: use "*" for any`;
  const open = unbalanced(body);
  if (open !== undefined)
    return `${JSON.stringify(glob)} does not parse: "${open}" is not matched (escape it as "\\${open}" to mean the character)`;
  if (/\{\s*\}|\[\s*\]/u.test(body)) return `${JSON.stringify(glob)} cannot match: it holds an empty {} or []`;
  if (what === 'name' && /\s/u.test(body)) return `${JSON.stringify(glob)} cannot match a name: names hold no spaces`;
  try {
    loadPicomatch().makeRe(body, options);
  } catch (error) {
    return `${JSON.stringify(glob)} does not parse: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
};
