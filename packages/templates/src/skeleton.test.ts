import { Liquid, LiquidError } from 'liquidjs';
import { describe, expect, it } from 'vitest';
import { PromptyardError } from '@promptyard/core';
import { createLiquidEngine, liquidOptions } from './liquid-engine.js';
import { buildSkeleton, textsName } from './skeleton.js';

/** What rendering produced: the output, or the error's template line and reason. */
type Outcome = { readonly output: string } | { readonly line: number | undefined; readonly reason: string };

const args = { a: 'A', b: "$& $1 $' {{ a }}", x: 'x' };

const engine = createLiquidEngine();
const viaEngine = async (source: string): Promise<Outcome> => {
  try {
    return { output: await engine.compile(source).render(args) };
  } catch (error) {
    if (!(error instanceof PromptyardError)) throw error;
    const { line } = error.data as { line?: number };
    return { line, reason: error.message.replace(/^line \d+: /, '') };
  }
};

/** The reference: plain liquidjs, same options, parsing the source itself. */
const liquid = new Liquid(liquidOptions());
const viaLiquid = async (source: string): Promise<Outcome> => {
  try {
    return { output: await liquid.parseAndRender(source, { ...args }) };
  } catch (error) {
    if (!LiquidError.is(error)) throw error;
    const reason = error.originalError?.message ?? error.message.replace(/, line:\d+, col:\d+$/, '');
    return { line: error.token.getPosition()[0], reason };
  }
};

const corpus = [
  // Whitespace control on every side, greedy: all blanks, newlines included.
  'a  \n {{- a -}} \n b',
  ' \t\r\n {{- a }}|{{ a -}} \r\n\t x',
  '  {%- if a -%}  x  {%- endif -%}  ',
  'x\n\n{%- if a %}\n  y\n{% endif -%}\n\nz',
  '{{-"-"-}}|{{- a-}}|{{-a -}}',
  // Raw: content is literal, dashes inside it do nothing, dashes outside trim.
  'x {%- raw -%} {{ a }} {%- endraw x %} {% endraw -%} y',
  '{% raw %}{% if %}{{{% endraw %}|{%raw%}{%endraw%}|{% raw %} {{- a -}} {% endraw %}',
  'a\n{% raw\n%}\n{{ x }}\n{%\nendraw\n%}\nb',
  // Comments: nothing inside renders, a raw block inside hides an endcomment.
  'a{% comment %} {{ a }} \n {% if %} {% endcomment %}b',
  'a \n{%- comment -%}\n x \n{%- endcomment -%}\n b',
  '{% comment %}{% raw %}{% endcomment %}{% endraw %}\nstill comment{% endcomment %}after',
  '{%# a note %}x{%- # another -%} y\n{% # line one\n  # line two %}z',
  // Blocks with text.
  '{% capture c %} x {{ a }} \n{% endcapture %}[{{ c }}]',
  '{%- capture c -%}\n  x\n{%- endcapture -%}\n[{{ c }}]',
  '{% for i in (1..3) %} item {{ i }},\n{% endfor %}done',
  '{% for i in (1..4) %}{% if i == 2 %}{% continue %}{% endif %}<{{ i }}>{% if i == 3 %}{% break %}{% endif %}{% endfor %}',
  '{% if a %} A {% if b %} B {% else %} notB {% endif %} {% unless c %} C {% endunless %}{% endif %}',
  '{% case a %} ignored {% when "A" %} A! {% else %} other {% endcase %}',
  '{% tablerow i in (1..2) %} cell {{ i }} {% endtablerow %}',
  '{% liquid\n  assign y = a | upcase\n  if y\n    echo y\n  endif\n%} after {{ y }}',
  '{% assign list = "p,q" | split: "," %}{% for item in list %}- {{ item }}\n{% endfor %}{% increment n %}{% increment n %}',
  // Outputs whose `}}` or `%}` is inside quotes.
  'a {{ "}}" }} b {{ \'}}\' | append: a }} c {{ a | default: "%}" }} d',
  'e {{ "\\"}}" }} f {% echo "%}" %} g',
  // Line endings, `$` patterns, non-ASCII (U+00A0 and U+3000 are blanks to liquidjs, U+0085 is not).
  'line1\r\n{% if a %}\r\n  yes\r\n{%- endif %}\r\nend\r\n',
  "$& $1 {% if a %}$'{% endif %} $$ $`",
  'é 日本 🎉 {{ a }} \u00a0{{- a -}}\u3000 x \u0085{{- a }}',
  // Empty text runs, markup at both ends, whitespace-only text between tags.
  '{{ a }}{{ b }}{% if a %}{% endif %}',
  '{% if a %}x{% endif %}',
  '{% if a %}   \n   {% endif %}|{%- if a %} \n {% endif -%}| {%- if a -%} \n {%- endif -%} ',
  // Braces that are not delimiters.
  '{ {a} } { {% if a %}{{ a }}}{% endif %} }} %} {',
  'x\n{{{ a }}}',
  '',
];

describe('the skeleton', () => {
  it('renders every corpus template exactly as liquidjs renders the source', async () => {
    for (const source of corpus) {
      expect(buildSkeleton(source), source).toBeDefined();
      expect(await viaEngine(source), source).toEqual(await viaLiquid(source));
    }
  });

  it('keeps markup verbatim and every line where it was', () => {
    const source = 'Hello\r\n  {{- a }}\n\n{% if a %}\n{% raw %}\n{{ x }}{% endraw %}{% endif %}';
    const skeleton = buildSkeleton(source);
    expect(skeleton?.source).toBe(`{%${textsName} 0\n%}{{- a }}{%${textsName} 1\n\n%}{% if a %}{%${textsName} 2\n\n%}{% endif %}`);
    expect(skeleton?.texts).toEqual(['Hello', '\n\n', '\n\n{{ x }}']);
  });

  it('agrees with liquidjs on generated templates, output and errors', async () => {
    let state = 20_240_601;
    const random = (n: number): number => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % n;
    };
    const pick = (items: readonly string[]): string => items[random(items.length)] ?? '';
    const texts = ['a', ' ', '\n', '\r\n', '\t', ' x ', '$&', 'é', '\u00a0', '{', '}', '%}', '}}', '-', "'", '"', ' \n \n '];
    const leaves = [
      '{{ a }}',
      '{{- a }}',
      '{{ a -}}',
      '{{- b -}}',
      '{{"}}"}}',
      '{%# note %}',
      '{%- # note -%}',
      '{% assign b = "B" %}',
      '{%-raw-%} {{ raw }} {%-endraw-%}',
      '{% raw %}{%- endraw x %}{% endraw %}',
      '{%- raw %}\n x \n{% endraw -%}',
      '{%- comment -%} a \n {{ b }} {%- endcomment -%}',
      '{% liquid\n echo a %}',
      '{{ a | nope }}',
      '{% bogus %}',
    ];
    const blocks: readonly (readonly [string, string])[] = [
      ['{% if a %}', '{% endif %}'],
      ['{%- unless a -%}', '{%- endunless -%}'],
      ['{% for i in (1..2) %}', '{% endfor %}'],
      ['{%- capture c -%}', '{%- endcapture -%}[{{ c }}]'],
    ];
    const generate = (depth: number): string => {
      let source = '';
      for (let count = random(5); count > 0; count--) {
        const kind = random(10);
        if (kind < 4) source += pick(texts) + pick(texts);
        else if (kind < 8 || depth > 1) source += pick(leaves);
        else {
          const [open, close] = blocks[random(blocks.length)] ?? ['', ''];
          source += open + generate(depth + 1) + (random(4) === 0 ? '{% else %}' : '') + close;
        }
      }
      return source;
    };
    for (let index = 0; index < 1500; index++) {
      const source = generate(0);
      expect(await viaEngine(source), source).toEqual(await viaLiquid(source));
    }
  });

  it('is not built for sources that do not tokenize plainly, which liquidjs then judges', async () => {
    const sources = [
      'x\n{{ a',
      'x\n{% if a',
      'x {{ "}} y',
      'a\n{% raw %}\nnever closed',
      // `{%- endraw %}` does not end a raw block in liquidjs.
      '{% raw %}x{%- endraw %}',
      '{% raw %}x{% endraw {% endraw %}y',
      '{%}',
      'a\n{% %}',
      '{%- -%}',
      `{{ ${textsName} }}|{{ a }}`,
      `x\n{% ${textsName} 0 %}`,
    ];
    for (const source of sources) {
      expect(buildSkeleton(source), source).toBeUndefined();
      expect(await viaEngine(source), source).toEqual(await viaLiquid(source));
    }
  });
});
