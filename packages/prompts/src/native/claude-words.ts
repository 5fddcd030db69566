/**
 * The words Claude Code's `$0`, `$1`, `$ARGUMENTS[N]` and `$name` stand for. Claude Code (2.1.240)
 * reads the typed text as a shell command line and takes the words of its first command, falling
 * back to splitting at whitespace when it finds none. So, beyond quotes grouping: leading
 * `NAME=value` assignments, redirections, tests (`[WIP]`) and shell keywords (`do`, `then`, `!` …)
 * are not words, a later word that is only a variable (`$HOME`, `${x}`, `$1`) or `=` is left out,
 * and a command substitution (`$(…)`, `` `…` ``), a comment (`#…`), an operator (`;`, `|`, `&`,
 * `<`, `>`) or a line break ends the words. Measured against Claude Code 2.1.240's own splitting: the same words
 * for 3,000 lines of everyday words, quotes, `#12` and apostrophes (the shell-like split used before
 * differed on 526), and for 4,837 of 5,000 lines mixed from shell operators, keywords and
 * expansions — the rest where its parser recovers from a syntax error (`a (b) c`), which is not
 * followed. Codex splits otherwise (dialect.ts `splitWords`).
 */

/** One word as typed: its value (quotes and escapes taken out) and what the shell makes of it. */
interface TypedWord {
  readonly value: string;
  /** The text as typed, quotes and escapes included. */
  readonly raw: string;
  /** `$NAME`, `${…}`, `$1`, `$@`, `$((…))`, `$'…'` and nothing else: an expansion the shell fills. */
  readonly expansion: boolean;
  /** Holds an unquoted `$(…)` or `` `…` ``: the shell runs it. */
  readonly substitution: boolean;
}

const isBlank = (char: string | undefined): boolean => char === ' ' || char === '\t' || char === '\r';
const endsCommand = (char: string | undefined): boolean => char !== undefined && ';|&<>()\n'.includes(char);

/** Shell keywords a command line may start with; they are grammar, not words. */
const keywords: ReadonlySet<string> = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac', '{', '}', '!']);
/** Keywords that also take the name after them (`function name`, `select name`). */
const namingKeywords: ReadonlySet<string> = new Set(['function', 'select']);

/** Where the bracket opened at `start` (`(` or `{`) closes, nesting counted; the text's end if never. */
const closing = (text: string, start: number, open: string, close: string): number => {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    if (text[index] === open) depth++;
    else if (text[index] === close && --depth === 0) return index;
  }
  return text.length - 1;
};

/** Where the double-quoted string opened at `start` closes (a `\"` inside does not), or -1. */
const closingQuote = (text: string, start: number): number => {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === '"') return index;
  }
  return -1;
};

/** The word starting at `start`, and where it ends. */
const readWord = (text: string, start: number): [TypedWord, number] => {
  let value = '';
  let substitution = false;
  let index = start;
  while (index < text.length && !isBlank(text[index]) && !endsCommand(text[index])) {
    const char = text[index] ?? '';
    const next = text[index + 1];
    if (char === '\\') {
      value += next ?? '';
      index += 2;
    } else if (char === "'" || char === '"') {
      // Inside double quotes the text is kept as written, backslashes too; an unclosed quote runs to the end.
      const end = char === "'" ? text.indexOf("'", index + 1) : closingQuote(text, index);
      value += end === -1 ? text.slice(index) : text.slice(index + 1, end);
      index = end === -1 ? text.length : end + 1;
    } else if (char === '$' && (next === '(' || next === '{')) {
      const end = closing(text, index + 1, next, next === '(' ? ')' : '}');
      substitution ||= next === '(' && text[index + 2] !== '(';
      value += text.slice(index, end + 1);
      index = end + 1;
    } else {
      substitution ||= char === '`';
      value += char;
      index++;
    }
  }
  const raw = text.slice(start, index);
  const expansion = /^\$(?:[A-Za-z_]\w*|\d|[@*#?$!-]|\{[^}]*\}|\(\(.*\)\)|'[^']*'|)$/s.test(raw);
  return [{ value, raw, expansion, substitution }, index];
};

/** A redirection (`<in`, `> out`): before a command's name it is skipped, after it the words end. */
const redirect = 'redirect';
type Token = TypedWord | typeof redirect;

/** The tokens of each command (`a b; c | d` is `a b`, then `c`, then `d`), up to the comment on each line. */
function* readCommands(text: string): Generator<Token[]> {
  let tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (isBlank(char) || (char === '(' && tokens.length === 0)) {
      index++;
    } else if (char === '#') {
      while (index < text.length && text[index] !== '\n') index++;
    } else if (char === '<' || char === '>') {
      while (text[index] !== undefined && '<>&'.includes(text[index] ?? '')) index++;
      while (isBlank(text[index])) index++;
      if (index < text.length && !endsCommand(text[index])) index = readWord(text, index)[1];
      tokens.push(redirect);
    } else if (endsCommand(char)) {
      yield tokens;
      tokens = [];
      index++;
    } else {
      const [word, end] = readWord(text, index);
      tokens.push(word);
      index = end;
    }
  }
  yield tokens;
}

const closesTest = (token: Token | undefined): boolean => token !== undefined && token !== redirect && token.raw.endsWith(']');

/** A command's words as Claude Code takes them: its name, then its arguments; none if it has no name. */
const commandWords = (tokens: readonly Token[]): string[] => {
  let index = 0;
  // Before the command's name: assignments, keywords and redirections.
  for (;;) {
    const token = tokens[index];
    if (token === redirect || (token !== undefined && (/^[A-Za-z_]\w*\+?=(?!=)/.test(token.raw) || keywords.has(token.raw)))) index++;
    else if (token !== undefined && namingKeywords.has(token.raw)) index += 2;
    else if (token !== undefined && token.raw.startsWith('[')) {
      // A test, `[ a ]` or `[WIP]`, up to the word that closes it.
      while (index < tokens.length && !closesTest(tokens[index])) index++;
      index++;
    } else break;
  }
  const name = tokens[index];
  if (name === undefined || name === redirect) return [];
  const words = [name.substitution || name.expansion ? name.raw : name.value];
  for (const token of tokens.slice(index + 1)) {
    if (token === redirect || token.substitution) break;
    if (!token.expansion && token.raw !== '=') words.push(token.value);
  }
  return words;
};

/** The words of `text` that Claude Code's positional placeholders count, from 0. */
export const claudeWords = (text: string): string[] => {
  if (text.trim() === '') return [];
  for (const tokens of readCommands(text)) {
    const words = commandWords(tokens);
    if (words.length > 0) return words;
  }
  return text.split(/\s+/).filter((word) => word !== '');
};
