import { describe, expect, it } from 'vitest';
import { createJinjaEngine } from './jinja-engine.js';
import { templateErrorOf } from './test-helpers.js';

describe('createJinjaEngine', () => {
  const engine = createJinjaEngine();

  it('renders filters, loops with loop.index, range(), default and join as Jinja2 does', async () => {
    const source = [
      'Topic: {{ topic | lower }} / {{ topic | upper }} / {{ topic | title }}',
      '{% for item in items.split(",") %}{{ loop.index }}. {{ item | trim }}{% if not loop.last %}, {% endif %}{% endfor %}',
      '{% for i in range(1, 4) %}[{{ i }}]{% endfor %}',
      '{{ missing | default("none given") }} {{ items.split(",") | join("; ") }}',
    ].join('\n');
    expect(await engine.render(source, { topic: 'Rust Lifetimes', items: 'a, b,c' })).toBe(
      'Topic: rust lifetimes / RUST LIFETIMES / Rust Lifetimes\n1. a, 2. b, 3. c\n[1][2][3]\nnone given a;  b; c',
    );
  });

  it('supports set, macros, whitespace control and comments, and renders a missing variable empty', async () => {
    const source = [
      '{# a comment #}{% set greeting = "Hello" %}',
      '{%- macro shout(text) -%}{{ text | upper }}!{%- endmacro %}',
      '{{ greeting }}, {{ shout(name) }}',
      '{%- if extra %} {{ extra }}{% endif %}[{{ nothing }}]',
    ].join('\n');
    expect(await engine.render(source, { name: 'ada' })).toBe('\nHello, ADA![]');
  });

  it('treats an argument not given as Jinja2 does: filters of it are empty, a loop over it runs its else block', async () => {
    const source =
      '[{{ m }}|{{ m.attr }}|{{ m | lower }}|{{ m | trim | upper }}|{{ m | length }}|{{ m | join(",") }}|{{ m | default("d") }}]{% for x in m %}{{ x }}{% else %}none{% endfor %}';
    expect(await engine.render(source, {})).toBe('[||||0||d]none');
  });

  it('keeps block lines and the final newline, as Prompty configures Jinja2 (keep_trailing_newline)', async () => {
    expect(await engine.render('{% if a %}\nyes\n{% endif %}\n', { a: '1' })).toBe('\nyes\n\n');
  });

  it('reports the names a caller supplies: first-use order, without locals, loop variables or builtins', () => {
    const source = [
      '{{ b }}{% set x = a | upper %}{{ x }}{{ b.size }}{{ c[d] }}',
      '{% for i in items %}{{ i }}{{ loop.index }}{% else %}{{ e }}{% endfor %}',
      '{% macro m(p, q=f) %}{{ p }}{{ q }}{% endmacro %}{{ m(g) }}',
      '{% if h is defined and true %}{{ j | default(k) }}{{ range(3) }}{% endif %}',
    ].join('\n');
    const expected = ['b', 'a', 'c', 'd', 'items', 'e', 'f', 'g', 'h', 'j', 'k'];
    expect(engine.compile(source).variables).toEqual(expected);
    expect(engine.analyze(source).variables).toEqual(expected);
  });

  it('reports syntax errors at the line of the tag, frontmatter included, saying what to fix', async () => {
    const expression = await templateErrorOf(() => engine.compile('one\ntwo\n{{ code | }}', { file: 'p.prompty', lineOffset: 5 }));
    expect(expression.message).toMatch(/^p\.prompty:8: /);
    expect(expression.data).toEqual({ file: 'p.prompty', line: 8, reason: expect.stringMatching(/^Unexpected token/) });
    const unclosed = await templateErrorOf(() => engine.compile('a\n{% for x in xs %}\n{{ x }}', { file: 'p.prompty' }));
    expect(unclosed.message).toBe('p.prompty:2: {% for %} is never closed: add {% endfor %}');
    const stray = await templateErrorOf(() => engine.compile('a\n\n{% endif %}'));
    expect(stray.message).toBe('line 3: {% endif %} closes no block: remove it');
    const string = await templateErrorOf(() => engine.compile("x\n{{ 'abc }}"));
    expect(string.message).toMatch(/^line 2: /);
  });

  it('rejects an unknown filter when the template loads, naming its line and the known filters', async () => {
    const error = await templateErrorOf(() => engine.compile('Review:\n{{ code | bogus }}', { file: 'r.prompty', lineOffset: 3 }));
    expect(error.message).toMatch(/^r\.prompty:5: unknown filter "bogus"; known filters: abs, bool, .*upper$/);
  });

  it('reports a render error at the line of the statement that failed', async () => {
    const template = engine.compile('fine\n{% for x in items | length %}{{ x }}{% endfor %}', { file: 'r.prompty', lineOffset: 2 });
    const error = await templateErrorOf(() => template.render({ items: 'abc' }));
    expect(error.message).toMatch(/^r\.prompty:4: Expected iterable/);
  });

  it('gives templates no way to JavaScript objects: constructor, __proto__ and prototype are nothing', async () => {
    const source =
      "[{{ ''.constructor }}|{{ name.constructor }}|{{ name.__proto__ }}|{{ namespace.constructor }}|{{ range.prototype }}|{{ loop.__proto__ }}]";
    expect(await engine.render(source, { name: 'x' })).toBe('[|||||]');
    const call = await templateErrorOf(() => engine.render("{{ ''.constructor.constructor('return process')() }}", {}));
    expect(call.message).toMatch(/not a function/);
  });

  it('ends a huge range() at once with a clear error instead of hanging or exhausting memory', async () => {
    const started = Date.now();
    const error = await templateErrorOf(() =>
      engine.render('{% for i in range(100000000) %}{{ i }}{% endfor %}', {}, { file: 'big.prompty' }),
    );
    expect(error.message).toBe('big.prompty:1: range() of 100000000 numbers is over the limit of 100000 items: loop over fewer');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stops a render at the time limit, even in loops whose bodies do nothing', async () => {
    const bounded = createJinjaEngine({ renderLimitMs: 50 });
    const started = Date.now();
    const error = await templateErrorOf(() =>
      bounded.render('{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}', {}),
    );
    expect(error.message).toMatch(/rendering took longer than 50 ms \(\[timeouts\] prompt_ms\)/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('bounds the size of any string, list or width a template makes', async () => {
    const small = createJinjaEngine({ outputLimit: 1000, itemLimit: 50 });
    const doubling = "{% set s = 'aaaaaaaaaa' %}{% for i in range(30) %}{% set s = s ~ s %}{% endfor %}{{ s }}";
    expect((await templateErrorOf(() => small.render(doubling, {}))).message).toMatch(/the text grows past 1000 characters/);
    expect((await templateErrorOf(() => small.render("{{ 'a' | indent(100000000) }}", {}))).message).toMatch(/a width of 100000000/);
    expect((await templateErrorOf(() => small.render('{{ range(51) | length }}', {}))).message).toMatch(/range\(\) of 51 numbers/);
    expect((await templateErrorOf(() => small.render('{{ (range(40) + range(40)) | length }}', {}))).message).toMatch(
      /a list grows past 50 items/,
    );
    const parse = await templateErrorOf(() => createJinjaEngine({ parseLimit: 10 }).compile('x'.repeat(20)));
    expect(parse.message).toBe('the template has 20 characters, over the limit of 10');
  });

  it('lets an argument named like a builtin not replace the builtin', async () => {
    expect(await engine.render('{{ range(2) | join(",") }}', { range: 'x' })).toBe('0,1');
  });

  it('honours an aborted signal before rendering', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(engine.render('{{ a }}', { a: '1' }, { signal: controller.signal })).rejects.toThrow('gone');
  });
});
