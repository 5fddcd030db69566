import { createRequire } from 'node:module';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

// The GFM plugin ships no types (and is CommonJS): load it untyped rather than declare a module
// ambiently, which every package typechecking our sources would need to see.
const require = createRequire(import.meta.url);
const { gfm } = require('turndown-plugin-gfm') as { gfm: TurndownService.Plugin };

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfm);
turndown.remove(['script', 'style', 'noscript']);

/** Readability's main content (the whole body when it finds none) as GitHub-flavoured Markdown. */
export const htmlToMarkdown = (html: string, url: string): { title: string; markdown: string } => {
  const { document } = parseHTML(html);
  const title = document.title || url;
  const article = new Readability(document.cloneNode(true) as unknown as ConstructorParameters<typeof Readability>[0], {
    charThreshold: 200,
  }).parse();
  const content = article?.content ?? document.body?.innerHTML ?? html;
  return { title: article?.title || title, markdown: turndown.turndown(content).trim() };
};
