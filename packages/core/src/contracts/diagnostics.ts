/**
 * Diagnostics: the problems a loader finds in a file, as records (file, line, severity, message,
 * code) handed to a sink its caller passes in. `promptyard-server validate` lists them; the log says
 * the same to people, in its own words, and is never read back.
 */

/** What kind of problem, for a caller that treats some apart; the message says it to people. */
export type DiagnosticCode =
  /** A file that does not load (bad YAML or TOML, a template that does not compile, unreadable, too large). */
  | 'invalid-file'
  /** A frontmatter key that looks like a typo of a known one: it is not read. */
  | 'unknown-key'
  /** An argument the file declares that its template never uses. */
  | 'unused-argument'
  /** A variable the template uses that the file does not declare. */
  | 'undeclared-variable'
  /** A prompt name another file or folder serves first. */
  | 'duplicate-name'
  /** A file a manifest declares that does not exist (twig.toml's prompts). */
  | 'missing-file'
  /** Something a format's own tool reads differently, or a value that is not served. */
  | 'format-warning';

export type DiagnosticSeverity = 'error' | 'warning';

export interface Diagnostic {
  /** Absolute path of the file (or folder) the problem is in. */
  readonly file: string;
  /** 1-based, when known. */
  readonly line?: number;
  readonly severity: DiagnosticSeverity;
  /** One sentence, without the file and line (the caller shows them). */
  readonly message: string;
  readonly code: DiagnosticCode;
}

/** Where a loader reports its diagnostics. */
export type DiagnosticSink = (diagnostic: Diagnostic) => void;
