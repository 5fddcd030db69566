/**
 * Variable substitution in server settings: `${NAME}`, `${env:NAME}` and `${NAME:-default}` (the
 * default also applies when NAME is set but empty, as in a shell). `$${` stays a literal `${`; a
 * lone `$` is never touched, so shell snippets in args keep working. Defaults cannot nest.
 */
export interface SubstitutionContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Names resolved before the environment for `${NAME}` (VS Code's `${workspaceFolder}`). */
  readonly builtins?: Readonly<Record<string, string>>;
  /** Leave unset variables as written instead of reporting them (for disabled servers). */
  readonly lenient?: boolean;
}

export interface Substitution {
  readonly value: string;
  /** What is wrong and what to do, without saying where (the caller knows). */
  readonly problems: readonly string[];
}

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const INNER = /^(env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

export const substituteVariables = (text: string, context: SubstitutionContext): Substitution => {
  const problems: string[] = [];
  const value = text.replace(REFERENCE, (whole, inner: string | undefined) => {
    if (inner === undefined) return '${';
    if (inner.startsWith('input:')) {
      problems.push(
        `uses ${whole}, which only VS Code can prompt for: replace it with \${env:NAME} and set NAME in the gateway's environment, or with the value itself`,
      );
      return whole;
    }
    const match = INNER.exec(inner);
    if (match === null) {
      problems.push(
        `has ${whole}, which is not a variable: write \${NAME}, \${env:NAME} or \${NAME:-default} (and $\${ for a literal \${)`,
      );
      return whole;
    }
    const [, envOnly, name = '', fallback] = match;
    const builtin = envOnly === undefined ? context.builtins?.[name] : undefined;
    if (builtin !== undefined) return builtin;
    const found = context.env[name];
    if (found !== undefined && (found !== '' || fallback === undefined)) return found;
    if (fallback !== undefined) return fallback;
    if (!context.lenient) {
      problems.push(
        `uses ${whole}, but ${name} is not set: set ${name} in the gateway's environment, or give a default as \${${name}:-value}`,
      );
    }
    return whole;
  });
  return { value, problems };
};

/** The variables `text` refers to (`${NAME}`, `${env:NAME}`, `${NAME:-default}`), in order of first use. */
export const referencedVariables = (text: string): string[] => {
  const names = new Set<string>();
  for (const [whole, inner] of text.matchAll(REFERENCE)) {
    const name = whole === '$${' || inner === undefined ? undefined : INNER.exec(inner)?.[2];
    if (name !== undefined) names.add(name);
  }
  return [...names];
};
