/** Optimal string alignment distance, bounded: returns `limit + 1` as soon as it is exceeded. */
const editDistance = (a: string, b: string, limit: number): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (previousPrevious[j - 2] as number) + 1);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previousPrevious = previous;
    previous = current;
  }
  return previous[b.length] as number;
};

/**
 * The known names closest to `input`, best first: names that contain it or share its last path
 * segment, then small edit distances. Case-insensitive.
 */
export const closestNames = (input: string, known: Iterable<string>, max = 3): string[] => {
  const needle = input.toLowerCase();
  const leaf = needle.split(/[/:]/).pop() ?? needle;
  const limit = Math.max(2, Math.floor(needle.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const name of known) {
    const candidate = name.toLowerCase();
    let score: number;
    if (candidate === needle) score = 0;
    else if (candidate.includes(needle) || (leaf.length >= 3 && candidate.endsWith(leaf)))
      score = 1 + Math.abs(candidate.length - needle.length) / 100;
    else {
      const distance = editDistance(needle, candidate, limit);
      if (distance > limit) continue;
      score = 2 + distance;
    }
    scored.push({ name, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1))
    .slice(0, max)
    .map((entry) => entry.name);
};

/** `"a", "b" or "c"` for messages. */
export const formatList = (items: readonly string[], conjunction = 'or'): string => {
  const quoted = items.map((item) => `"${item}"`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted.at(-1) as string}`;
};

/** Where a hint stands in its message: a sentence of its own, an aside in parentheses, or a clause after `;` or `:`. */
export type HintForm = 'sentence' | 'aside' | 'clause' | 'colon';

/**
 * The one "did you mean" hint for every message: `" Did you mean "a" or "b"?"` (sentence),
 * `" (did you mean "a"?)"` (aside), `"; did you mean "a"?"` (clause) or `": did you mean "a"?"` (colon), or `''` when nothing is
 * close. `names` are shown as given to `formatList`; pass them already shaped (`[section]`,
 * `doc://x`) where the message names them so.
 */
export const didYouMean = (
  close: readonly string[],
  form: HintForm = 'sentence',
  show: (names: readonly string[]) => string = formatList,
): string => {
  if (close.length === 0) return '';
  const names = show(close);
  if (form === 'sentence') return ` Did you mean ${names}?`;
  if (form === 'aside') return ` (did you mean ${names}?)`;
  return `${form === 'colon' ? ':' : ';'} did you mean ${names}?`;
};

/**
 * The known names within `maxEdits` edits of `input` (case-insensitive; a case-only difference counts
 * as close), closest first. Only typos: unlike `closestNames`, a name that merely contains `input` is
 * not close.
 */
export const namesWithinEdits = (input: string, known: Iterable<string>, maxEdits: number): string[] => {
  const needle = input.toLowerCase();
  const scored: { name: string; distance: number }[] = [];
  for (const name of known) {
    const distance = editDistance(needle, name.toLowerCase(), maxEdits);
    if (distance <= maxEdits) scored.push({ name, distance });
  }
  return scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1)).map((entry) => entry.name);
};
