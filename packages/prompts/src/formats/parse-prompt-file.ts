/**
 * The file formats of a prompt folder: Markdown prompts (`parsePromptFile`, this file), the YAML
 * frontmatter fence with its fast path for plain YAML and readable YAML errors, the frontmatter keys
 * Promptyard knows, message sections, derived descriptions, twig.toml manifests, `.prompty` files
 * beside the Markdown, and the file errors they all throw.
 */
import {
  PromptyardError,
  describeError,
  isPromptyardError,
  type CompiledTemplate,
  type DiagnosticSink,
  type Logger,
  type PromptArgument,
  type PromptEntry,
  type PromptMessage,
  type TemplateEngine,
} from '@promptyard/core';
import { deriveDescription } from './derive-description.js';
import { fileError } from './file-error.js';
import { parseFrontmatter } from './frontmatter.js';
import { describeKeyTypo, wordLine } from './frontmatter-typos.js';
import { hasMessageMarkers, splitMessageParts } from './message-sections.js';
import { resolveReference, type ReferenceOptions } from '../native/file-references.js';
import { frontmatterKeyLine, readPromptFrontmatter } from './prompt-frontmatter.js';

/** What a twig library contributes to one of its prompts. */
export interface PromptLibraryContext {
  /** Liquid with partials confined to the library; renders the library's prompts. */
  readonly engine: TemplateEngine;
  /** From `[prompts.<name>]` in twig.toml; wins over the file's own frontmatter. */
  readonly description?: string;
  readonly arguments?: readonly PromptArgument[];
}

export interface ParsePromptFileOptions {
  /** Decoded file content. */
  readonly text: string;
  /** Absolute path: the entry's origin and the file named in errors. */
  readonly file: string;
  readonly name: string;
  /** Path relative to the prompt folder, exposed as `meta['dev.promptyard/source']`. */
  readonly source: string;
  /** Must contain `liquid` and `arguments`. */
  readonly engines: Readonly<Record<string, TemplateEngine>>;
  readonly library?: PromptLibraryContext;
  readonly logger?: Logger;
  /** Receives the file's warnings as records: likely typos, arguments declared but unused, variables used but not declared. */
  readonly diagnostics?: DiagnosticSink;
  /** `<!-- resource: … -->` files larger than this stay out; 100 KiB by default. */
  readonly maxFileBytes?: number;
  /** Embed `<!-- resource: … -->` files whose symlinks lead outside the prompt folder; off by default. */
  readonly followExternalSymlinks?: boolean;
}

type Part =
  | { readonly kind: 'message'; readonly role: 'user' | 'assistant'; readonly template: CompiledTemplate }
  | { readonly kind: 'resource'; readonly path: string };

const freeTextArgument: PromptArgument = {
  name: 'arguments',
  description: 'Free-text arguments, substituted for $ARGUMENTS',
  required: false,
};

/**
 * One frozen object for equal arguments, wherever they occur: undeclared template variables
 * (`{{ audience }}` in thousands of prompts) and declared arguments alike (a library's prompts
 * declare the same `subject` over and over).
 */
const sharedArguments = new Map<string, PromptArgument>();
const share = (key: string, make: () => PromptArgument): PromptArgument => {
  let argument = sharedArguments.get(key);
  if (argument === undefined) {
    argument = Object.freeze(make());
    if (sharedArguments.size < 10_000) sharedArguments.set(key, argument);
  }
  return argument;
};
const variableArgument = (name: string): PromptArgument =>
  share(`v${name}`, () => ({ name, description: `Template variable "${name}"`, required: false }));
/** Declared arguments are small plain data (see prompt-frontmatter.ts), so JSON is their identity. */
const declaredArgument = (argument: PromptArgument): PromptArgument =>
  share(`d${JSON.stringify(argument)}`, () => ({
    ...argument,
    ...(argument.enum !== undefined && { enum: Object.freeze([...argument.enum]) }),
  }));

const engineNamed = (engines: Readonly<Record<string, TemplateEngine>>, name: string): TemplateEngine | undefined =>
  Object.hasOwn(engines, name) ? engines[name] : undefined;

const requireEngine = (engines: Readonly<Record<string, TemplateEngine>>, name: string, file: string): TemplateEngine => {
  const engine = engineNamed(engines, name);
  if (engine === undefined) throw fileError(file, `no "${name}" template engine is configured`);
  return engine;
};

const compile = (engine: TemplateEngine, body: string, file: string, bodyLine: number): CompiledTemplate => {
  try {
    return engine.compile(body, { file, lineOffset: bodyLine });
  } catch (error) {
    if (isPromptyardError(error)) throw error;
    throw new PromptyardError('TEMPLATE_ERROR', `${file}: ${describeError(error)}`, { cause: error, data: { file } });
  }
};

/** Arguments declared but never used and variables used but not declared: debug lines, and warnings as diagnostics. */
const reportArgumentMismatches = (
  options: ParsePromptFileOptions,
  declared: readonly PromptArgument[],
  variables: readonly string[],
): void => {
  const { file, text, logger, diagnostics } = options;
  if (logger === undefined && diagnostics === undefined) return;
  const warn = (code: 'unused-argument' | 'undeclared-variable', word: string, message: string): void => {
    const line = diagnostics === undefined ? undefined : wordLine(text, word);
    diagnostics?.({ file, ...(line === undefined ? {} : { line }), severity: 'warning', code, message });
  };
  const used = new Set(variables);
  for (const argument of declared) {
    if (used.has(argument.name)) continue;
    logger?.debug('declared argument is not used by the template', { file, argument: argument.name });
    warn('unused-argument', argument.name, `argument "${argument.name}" is declared but never used`);
  }
  if (declared.length === 0) return;
  for (const variable of variables) {
    if (declared.some((argument) => argument.name === variable)) continue;
    logger?.debug('template variable is not declared', { file, argument: variable });
    warn('undeclared-variable', variable, `"${variable}" is used but not declared`);
  }
};

/**
 * Turns one prompt file's text into a registry entry: frontmatter checked, template compiled once,
 * arguments and description settled. Throws a `PromptyardError` naming the file when it is invalid.
 */
export const parsePromptFile = (options: ParsePromptFileOptions): PromptEntry => {
  const { text, file, name, engines, library } = options;
  const { data, body, bodyLine } = parseFrontmatter(text, file);
  const location = { file, text, bodyLine };
  const frontmatter = readPromptFrontmatter(data, location);
  for (const typo of frontmatter.typos) {
    const line = frontmatterKeyLine(location, typo.key);
    options.logger?.warn(describeKeyTypo(typo), { file, line, key: typo.key });
    options.diagnostics?.({
      file,
      ...(line === undefined ? {} : { line }),
      severity: 'warning',
      code: 'unknown-key',
      message: describeKeyTypo(typo),
    });
  }

  let engineName: string;
  if (frontmatter.engine !== undefined) {
    engineName = frontmatter.engine;
    if (engineNamed(engines, engineName) === undefined) {
      throw fileError(file, `frontmatter: engine "${engineName}" is unknown; known engines: ${Object.keys(engines).join(', ')}`, {
        line: frontmatterKeyLine(location, 'engine'),
      });
    }
  } else if (library === undefined && body.includes('$ARGUMENTS')) {
    engineName = 'arguments';
  } else {
    engineName = 'liquid';
  }
  const engine = library !== undefined && engineName === 'liquid' ? library.engine : requireEngine(engines, engineName, file);
  // Several messages and embedded files only when the body asks for them (see message-sections.ts).
  const parts: Part[] = hasMessageMarkers(body)
    ? splitMessageParts(body, (line, reason) => {
        throw fileError(file, reason, { line: bodyLine + line + 1 });
      }).map((part): Part =>
        part.kind === 'resource'
          ? part
          : { kind: 'message', role: part.role, template: compile(engine, part.text, file, bodyLine + part.lineOffset) },
      )
    : [{ kind: 'message', role: 'user', template: compile(engine, body, file, bodyLine) }];
  const variables = [...new Set(parts.flatMap((part) => (part.kind === 'message' ? part.template.variables : [])))];
  const template = { variables };

  // Declared arguments are authoritative; undeclared template variables become optional ones.
  const declared: PromptArgument[] = [...(library?.arguments ?? [])].map(declaredArgument);
  const names = new Set(declared.map((argument) => argument.name));
  for (const argument of frontmatter.arguments) {
    if (!names.has(argument.name)) {
      declared.push(declaredArgument(argument));
      names.add(argument.name);
    }
  }
  const args = [...declared];
  if (engineName === 'arguments') {
    if (!names.has('arguments')) args.push(freeTextArgument);
  } else {
    for (const variable of template.variables) {
      if (names.has(variable)) continue;
      names.add(variable);
      args.push(variableArgument(variable));
    }
  }
  reportArgumentMismatches(options, declared, template.variables);

  const given = [library?.description, frontmatter.description].find((text) => text !== undefined && text.trim() !== '');
  const description = given ?? deriveDescription(body, name);
  const title = frontmatter.title;
  return {
    name,
    ...(title !== undefined && { title }),
    description,
    // Exactly as long as it is: grown by push, an array keeps spare room.
    arguments: args.slice(),
    meta: { ...frontmatter.extra, 'dev.promptyard/source': options.source },
    origin: { file, line: 1 },
    text: body,
    render: createRender(parts, file, parts.some((part) => part.kind === 'resource') ? embedding(options) : undefined),
  };
};

/** How a prompt's `<!-- resource: … -->` files are found: kept only by prompts that embed some. */
interface Embedding {
  /** The prompt folder: the file's path minus its source path. */
  readonly root: string;
  readonly maxFileBytes: number;
  readonly references: ReferenceOptions;
}

const embedding = (options: ParsePromptFileOptions): Embedding => {
  const { file, logger } = options;
  // One warning per embedded file that a symlink leads outside, not one per render.
  const escaped = new Set<string>();
  return {
    root: file.slice(0, Math.max(0, file.length - options.source.length - 1)),
    maxFileBytes: options.maxFileBytes ?? 100 * 1024,
    references: {
      followExternal: options.followExternalSymlinks === true,
      onEscape: (path, real) => {
        if (escaped.has(path)) return;
        escaped.add(path);
        logger?.warn(
          'not embedding a file whose symlink leads outside the prompt folder; set [prompts] follow_external_symlinks = true to allow it',
          {
            file,
            path,
            target: real,
          },
        );
      },
    },
  };
};

/**
 * The entry's render, made outside `parsePromptFile` so that it keeps only what rendering needs
 * (thousands of entries are kept; the parse options and frontmatter are not).
 */
const createRender =
  (parts: readonly Part[], file: string, embedded: Embedding | undefined): PromptEntry['render'] =>
  async (values, renderOptions) => {
    const messages: PromptMessage[] = [];
    for (const part of parts) {
      if (part.kind === 'resource') {
        const content =
          embedded === undefined ? undefined : await resolveReference(embedded.root, part.path, embedded.maxFileBytes, embedded.references);
        messages.push({ role: 'user', content: content ?? { type: 'text', text: `[${part.path}: not found inside the prompt folder]` } });
        continue;
      }
      let rendered: string;
      try {
        rendered = await part.template.render(values, renderOptions);
      } catch (error) {
        if (isPromptyardError(error) || renderOptions?.signal?.aborted === true) throw error;
        throw new PromptyardError('TEMPLATE_ERROR', `${file}: ${describeError(error)}`, { cause: error, data: { file } });
      }
      if (parts.length === 1 || rendered.trim() !== '') messages.push({ role: part.role, content: { type: 'text', text: rendered } });
    }
    return { messages };
  };
