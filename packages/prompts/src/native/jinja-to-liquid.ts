/**
 * The common Jinja2 spellings Prompty files use, in Liquid: `| f(a)` → `| f: a`, `elif` → `elsif`,
 * `loop.` → `forloop.`, `{# … #}` dropped. Anything else is left for Liquid, which shares `{{ x }}`,
 * `{% if %}` and `{% for %}`.
 */
export const jinjaToLiquid = (source: string): string =>
  source
    .replace(/\{#[\s\S]*?#\}/g, '')
    .replace(/\{%-?\s*elif\b/g, (match) => match.replace('elif', 'elsif'))
    .replace(/(\{\{|\{%)([\s\S]*?)(\}\}|%\})/g, (_whole, open: string, inner: string, close: string) => {
      const converted = inner
        .replace(/\|\s*([A-Za-z_]\w*)\(([^()]*)\)/g, (_filter, name: string, args: string) => (args.trim() === '' ? `| ${name}` : `| ${name}: ${args}`))
        .replace(/\bloop\./g, 'forloop.');
      return `${open}${converted}${close}`;
    });
