import { templateError, locatedAt, syntaxReason } from './jinja-errors.js';
import type { JinjaModule, Program, Site } from './jinja-interpreter.js';
import { filterLine, locateSyntaxError, statementLines } from './jinja-lines.js';
import { convertNodes } from './jinja-nodes.js';
import { JinjaUnsupportedError, prepareSource } from './jinja-source.js';
import { rewriteStatements, type Token } from './jinja-statements.js';
import { readTree, type JinjaNode } from './jinja-tree.js';
import { unknownFilterReason } from './jinja-filters.js';

/**
 * One Jinja file parsed into the nodes the engine renders: the source prepared (jinja-source.ts),
 * Jinja2's other statements rewritten (jinja-statements.ts), parsed by @huggingface/jinja, each
 * statement's site recorded, and the new nodes made (jinja-nodes.ts). Syntax errors and unknown
 * filters fail here, at the line of their tag.
 */

const parseText = (jinja: JinjaModule, text: string): Program =>
  jinja.parse(rewriteStatements(jinja.tokenize(prepareSource(text)) as Token[]));

/** Jinja2's tests that take an argument, which the library's parser does not read. */
const testWithArgument = /\bis\s+(not\s+)?(\w+\s*\(|(eq|equalto|ne|ge|gt|greaterthan|le|lt|lessthan|in|sameas|divisibleby)\s+[^\s%}])/;

/** A syntax error at the line of the tag that causes it. */
const syntaxError = (jinja: JinjaModule, text: string, site: (line: number | undefined) => Partial<Site>, error: unknown): Error => {
  const found = locateSyntaxError(text, (part) => {
    try {
      parseText(jinja, part);
      return true;
    } catch {
      return false;
    }
  });
  const line = found === undefined ? '' : (text.split('\n')[found.line - 1] ?? '');
  const reason =
    error instanceof JinjaUnsupportedError
      ? error.message
      : testWithArgument.test(line)
        ? 'a test with an argument (`is divisibleby(3)`, `is eq 1`, `is in xs`) is not supported yet: write it with %, == or in'
        : (found?.reason ?? syntaxReason(error));
  return templateError(reason, site(found?.line), error);
};

/**
 * The converted tree of `text` (from `file`, undefined for the compiled template's own text, whose
 * lines follow `lineOffset` lines of frontmatter); `sites` learns where each statement is.
 */
export const parseTemplate = (
  jinja: JinjaModule,
  text: string,
  where: { readonly file: string | undefined; readonly lineOffset: number },
  sites: Map<JinjaNode, Site>,
): JinjaNode => {
  const site = (line: number | undefined): Partial<Site> => ({
    file: where.file,
    ...(line === undefined ? {} : { line: line + where.lineOffset }),
  });
  let program: Program;
  try {
    program = parseText(jinja, text);
  } catch (error) {
    throw syntaxError(jinja, text, site, error);
  }
  for (const [node, line] of statementLines(program.body, prepareSource(text)))
    sites.set(node, { file: where.file, line: line + where.lineOffset });
  const converted = convertNodes(program, sites, locatedAt(sites));
  for (const name of readTree(converted).filters) {
    const reason = unknownFilterReason(name);
    if (reason !== undefined) throw templateError(reason, site(filterLine(text, name)), undefined);
  }
  return converted;
};
