/** A library's llms.txt and, when the site publishes one, its llms-full.txt. */
export interface DocLibrary {
  readonly url: string;
  readonly fullUrl?: string;
}

const site = (url: string, full = true): DocLibrary => (full ? { url, fullUrl: url.replace(/llms\.txt$/, 'llms-full.txt') } : { url });

/**
 * Well-known llms.txt locations (from the llms-txt-hub registry and the sites themselves); config's
 * `[resources.doc.libraries]` adds to and overrides them.
 */
export const builtinLibraries: Readonly<Record<string, DocLibrary>> = {
  anthropic: site('https://docs.anthropic.com/llms.txt'),
  astro: site('https://astro.build/llms.txt', false),
  bun: site('https://bun.sh/llms.txt'),
  cloudflare: site('https://developers.cloudflare.com/llms.txt'),
  drizzle: site('https://orm.drizzle.team/llms.txt'),
  hono: site('https://hono.dev/llms.txt'),
  'langchain-js': site('https://js.langchain.com/llms.txt', false),
  langchain: site('https://python.langchain.com/llms.txt', false),
  langgraph: site('https://langchain-ai.github.io/langgraph/llms.txt'),
  mcp: site('https://modelcontextprotocol.io/llms.txt'),
  nextjs: site('https://nextjs.org/docs/llms.txt'),
  prisma: site('https://prisma.io/docs/llms.txt'),
  supabase: site('https://supabase.com/llms.txt', false),
  svelte: site('https://svelte.dev/llms.txt'),
  vue: site('https://vuejs.org/llms.txt'),
};
