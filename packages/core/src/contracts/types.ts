/**
 * The shapes every package agrees on. They mirror the MCP specification's prompt types but belong to
 * Promptyard, so packages never import the SDK: only `@promptyard/mcp` (and the router's upstream client) does.
 */

export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
  /** Used when the client does not send the argument; also offered by completion. */
  readonly default?: string;
  /** Allowed values; offered by completion. */
  readonly enum?: readonly string[];
}

export interface TextContent {
  readonly type: 'text';
  readonly text: string;
  /** MCP's `_meta` of the content (a Prompty role line's attributes). */
  readonly _meta?: Readonly<Record<string, unknown>>;
}

export interface ImageContent {
  readonly type: 'image';
  readonly data: string;
  readonly mimeType: string;
}

export interface EmbeddedResourceContent {
  readonly type: 'resource';
  readonly resource:
    | { readonly uri: string; readonly mimeType?: string; readonly text: string }
    | { readonly uri: string; readonly mimeType?: string; readonly blob: string };
}

export type PromptContent = TextContent | ImageContent | EmbeddedResourceContent;

export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: PromptContent;
}

export interface RenderedPrompt {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
}

/** Where a prompt came from, for error messages (`prompts/review.md:3`). */
export interface SourceLocation {
  readonly file: string;
  readonly line?: number;
}

export interface RenderOptions {
  readonly signal?: AbortSignal;
}

/** One prompt as the registry holds it: metadata for `prompts/list`, a renderer for `prompts/get`. */
export interface PromptEntry {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** Extra frontmatter keys and provenance, exposed as the prompt's `_meta`. */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly origin: SourceLocation;
  /** The prompt's source text (its template body), for search. */
  readonly text?: string;
  /**
   * Renders the prompt. `args` holds only declared arguments, with defaults applied and required
   * ones checked by the caller. Throws `PromptyardError('TEMPLATE_ERROR')` with the file and line.
   */
  render(args: Readonly<Record<string, string>>, options?: RenderOptions): Promise<RenderedPrompt>;
}

/** What a template engine found in a template: the top-level variables a caller must supply. */
export interface TemplateAnalysis {
  readonly variables: readonly string[];
}

export interface CompileOptions {
  /** Shown in error messages; also the root that partials may not escape. */
  readonly file?: string;
  /** Lines that precede the template in `file` (its frontmatter): file line = template line + lineOffset. */
  readonly lineOffset?: number;
  /**
   * Arguments whose values are JSON text (Prompty inputs typed `array`, `object`, `number` …). An
   * engine with typed values (Jinja) parses them; a value that is not JSON stays a string.
   */
  readonly jsonArguments?: readonly string[];
  /**
   * The prompt root, for templates that load other files (Jinja's `{% extends %}`, `{% include %}`,
   * `{% import %}`): found beside `file`, then at the root; never outside it. Without a root (or
   * `file`) such a template is refused.
   */
  readonly root?: string;
  /** Bytes a file the template loads may have. */
  readonly maxFileBytes?: number;
}

export interface CompiledTemplate extends TemplateAnalysis {
  render(args: Readonly<Record<string, string>>, options?: RenderOptions): Promise<string>;
}

/**
 * A rendering engine: Liquid, plain `{{name}}`, `$ARGUMENTS`, … `compile` parses once so a prompt is
 * analysed at load time and rendered cheaply on every `prompts/get`.
 */
export interface TemplateEngine {
  readonly name: string;
  analyze(source: string, options?: CompileOptions): TemplateAnalysis;
  render(source: string, args: Readonly<Record<string, string>>, options?: CompileOptions & RenderOptions): Promise<string>;
  compile(source: string, options?: CompileOptions): CompiledTemplate;
}
