import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Liquid } from 'liquidjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLiquidEngine } from './liquid-engine.js';
import { templateErrorOf } from './test-helpers.js';

describe('createLiquidEngine', () => {
  const engine = createLiquidEngine();

  it('renders variables, filters and if/else, with missing variables rendering empty', async () => {
    const source = 'Hi {{ name | upcase }}{{ title }}!\n{% if focus %}Focus: {{ focus }}{% else %}No focus{% endif %}';
    expect(await engine.render(source, { name: 'ada' })).toBe('Hi ADA!\nNo focus');
    expect(await engine.render(source, { name: 'ada', focus: 'tests' })).toBe('Hi ADA!\nFocus: tests');
    expect(await engine.render('[{{ missing.deep.path }}][{{ missing | default: "n/a" }}]', {})).toBe('[][n/a]');
  });

  it('renders for loops over assigned values', async () => {
    const source = '{% assign files = list | split: "," %}{% for f in files %}{{ forloop.index }}. {{ f | strip }}\n{% endfor %}';
    expect(await engine.render(source, { list: 'a.ts, b.ts' })).toBe('1. a.ts\n2. b.ts\n');
  });

  it('reports the names a caller must supply: de-duplicated, in first-use order, without locals', () => {
    const source = [
      '{{ b }}{% assign x = a | upcase %}{{ x }}{{ b.size }}',
      '{% for i in items %}{{ i }}{{ forloop.index }}{% endfor %}',
      '{% capture c %}{{ d }}{% endcapture %}{{ c }}',
      '{% if e %}{{ f | default: g }}{% endif %}',
    ].join('\n');
    const expected = ['b', 'a', 'items', 'd', 'e', 'f', 'g'];
    expect(engine.compile(source).variables).toEqual(expected);
    expect(engine.analyze(source).variables).toEqual(expected);
  });

  it('reports an unknown filter at load time with the file line, frontmatter included', async () => {
    const source = 'Review this:\n{{ code | foo }}';
    const error = await templateErrorOf(() => engine.compile(source, { file: 'prompts/review.md', lineOffset: 10 }));
    expect(error.message).toBe('prompts/review.md:12: undefined filter: foo');
    expect(error.data).toEqual({ file: 'prompts/review.md', line: 12 });
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('reports an unknown tag on its own line, and a line without a file', async () => {
    const source = 'one\ntwo\n{% if x %}\n  {% bogus %}\n{% endif %}';
    const withFile = await templateErrorOf(() => engine.analyze(source, { file: 'a.md', lineOffset: 2 }));
    expect(withFile.message).toBe('a.md:6: tag "bogus" not found');
    const withoutFile = await templateErrorOf(() => engine.render('{% if x %}', {}));
    expect(withoutFile.message).toBe('line 1: tag {% if x %} not closed');
    expect(withoutFile.data).toEqual({ line: 1 });
  });

  it('blocks prototype access', async () => {
    const source = '[{{ constructor }}][{{ a.__proto__ }}][{{ a.constructor.name }}][{{ toString }}][{{ __proto__ }}]';
    expect(await engine.render(source, { a: 'x' })).toBe('[][][][][]');
  });

  it('keeps values literal: no $ patterns, no template expansion', async () => {
    const value = "$& $1 $$ $' {{ secret }} {% if true %}";
    expect(await engine.render('<{{ a }}>', { a: value, secret: 'S' })).toBe(`<${value}>`);
  });

  it('does not mutate the arguments', async () => {
    const args = Object.freeze({ n: 'x' });
    expect(await engine.render('{% increment count %}{% increment count %}{{ n }}', args)).toBe('01x');
    expect(args).toEqual({ n: 'x' });
  });

  it('stops a render that runs past renderLimitMs', async () => {
    const slow = createLiquidEngine({ renderLimitMs: 100, memoryLimit: Number.MAX_SAFE_INTEGER });
    const source = 'intro\n{% for a in (1..1000) %}{% for b in (1..1000) %}{% for c in (1..1000) %}x{% endfor %}{% endfor %}{% endfor %}';
    const template = slow.compile(source, { file: 'slow.md', lineOffset: 1 });
    const started = performance.now();
    const error = await templateErrorOf(() => template.render({}));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(error.message).toBe('slow.md:3: template render limit exceeded');
  });

  it('stops a render that allocates past memoryLimit', async () => {
    const error = await templateErrorOf(() => engine.render('{% for i in (1..100000000) %}{% endfor %}', {}, { file: 'big.md' }));
    expect(error.message).toBe('big.md:1: memory alloc limit exceeded');
  });

  it('refuses templates longer than parseLimit', async () => {
    const small = createLiquidEngine({ parseLimit: 100 });
    const error = await templateErrorOf(() => small.compile('{% if a %}{% endif %}'.repeat(10), { file: 'long.md' }));
    expect(error.message).toBe('long.md: parse length limit exceeded');
  });

  describe('fast path', () => {
    // With a parse limit of one character, any source that reaches the Liquid parser fails.
    const fast = createLiquidEngine({ parseLimit: 1 });
    const args = { a: 'A', b: '$& {{ c }}', trueish: 'T', nil_value: 'N', c: 'C' };

    it('skips the parse for plain text and bare {{ name }} outputs', async () => {
      const text = 'Plain text with { braces }, %} and }} and $ARGUMENTS.\n'.repeat(20);
      const template = fast.compile(text, { file: 'plain.md' });
      expect(template.variables).toEqual([]);
      expect(await template.render(args)).toBe(text);

      const simple = fast.compile(`${text}{{ b }} {{a}} {{\n  b }} {{ missing }} {{ constructor }}}`);
      expect(simple.variables).toEqual(['b', 'a', 'missing', 'constructor']);
      expect(await simple.render(args)).toBe(`${text}$& {{ c }} A $& {{ c }}  }`);
    });

    it('leaves everything else to Liquid', () => {
      const sources = [
        '{{ a.b }} and more',
        '{{ a | upcase }}',
        '{{- a }}',
        '{{ true }} text',
        '{{ nil }} text',
        '{{{ a }}}',
        '{% if a %}x{% endif %}',
        'x {{ a }} {{ broken',
      ];
      for (const source of sources) {
        expect(() => fast.compile(source), source).toThrow('parse length limit exceeded');
      }
    });

    it('renders exactly as Liquid does', async () => {
      const sources = [
        '{{ a }}{{b}}',
        '{{ trueish }}|{{ nil_value }}|{{ constructor }}|{{ __proto__ }}|{{ missing }}',
        '{ {{ a }} }}}',
        '{{\ta\r\n}}',
      ];
      for (const source of sources) {
        // A no-op tag sends the same source through the Liquid parser.
        const viaLiquid = await engine.render(`${source}{% comment %}{% endcomment %}`, args);
        expect(await fast.render(source, args), source).toBe(viaLiquid);
        expect(fast.analyze(source).variables, source).toEqual(engine.analyze(`${source}{% comment %}{% endcomment %}`).variables);
      }
    });
  });

  describe('skeleton', () => {
    it('reports parse errors after multi-line text, raw and comment blocks on their file line', async () => {
      const cases = [
        ['intro\n\nmore text\n{% bogus %}', 'p.md:7: tag "bogus" not found'],
        ['a\r\nb\r\n  {{- x | nope }}', 'p.md:6: undefined filter: nope'],
        ['a\n{% raw %}\n{{ x }}\n{% endraw %}\n{{ x | nope }}', 'p.md:8: undefined filter: nope'],
        ['a\n{% raw\n%}x{%\nendraw %}\n{{ x | nope }}', 'p.md:8: undefined filter: nope'],
        ['{% comment %}\none\ntwo\n{% endcomment %}\n{% if x %}', 'p.md:8: tag {% if x %} not closed'],
        ['text\n{%- if a -%}\n\n  {{ a | nope }}\n{%- endif %}', 'p.md:7: undefined filter: nope'],
        ['{% if a %}\nyes\n{% else %}\nno\n{% endif %}\n{% endif %}', 'p.md:9: tag "endif" not found'],
        ['intro\n{% liquid\n  assign x = 1\n  bogus\n%}', 'p.md:7: tag "bogus" not found'],
        // Not tokenizable, so parsed in full: liquidjs's own error and line.
        ['one\ntwo\n{% if x', 'p.md:6: tag "{% if x" not closed'],
        ['one\n{{ a', 'p.md:5: output "{{ a" not closed'],
      ] as const;
      for (const [source, message] of cases) {
        const error = await templateErrorOf(() => engine.compile(source, { file: 'p.md', lineOffset: 3 }));
        expect(error.message, source).toBe(message);
      }
    });

    it('reports render errors after multi-line text on their file line, per file when skeletons are shared', async () => {
      const body = '\n\nthree {% for i in (1..n) %}{% endfor %}';
      const first = engine.compile(`one\ntwo${body}`, { file: 'a.md', lineOffset: 3 });
      const second = engine.compile(`uno\ndos${body}`, { file: 'b.md', lineOffset: 1 });
      expect((await templateErrorOf(() => first.render({ n: '100000000' }))).message).toBe('a.md:7: memory alloc limit exceeded');
      expect((await templateErrorOf(() => second.render({ n: '100000000' }))).message).toBe('b.md:5: memory alloc limit exceeded');
      expect(await first.render({ n: '2' })).toBe('one\ntwo\n\nthree ');
      expect(await second.render({ n: '2' })).toBe('uno\ndos\n\nthree ');
    });

    it('renders each prompt with its own text when prompts share markup', async () => {
      const markup = '{% if a %}<{{ a | upcase }}>{% endif %}';
      const first = engine.compile(`First: ${markup}\nend of first`);
      const second = engine.compile(`Second:\t${markup}\nend of second`);
      expect(first.variables).toEqual(['a']);
      expect(second.variables).toEqual(['a']);
      expect(await first.render({ a: 'x' })).toBe('First: <X>\nend of first');
      expect(await second.render({ a: 'y' })).toBe('Second:\t<Y>\nend of second');
      expect(await first.render({})).toBe('First: \nend of first');
    });

    it('renders prompts whose parsed skeletons were dropped', async () => {
      // More distinct skeletons than an engine keeps: the first parse again when they render. (A
      // filter other than `default` keeps them off the direct renderer, which needs no tree.)
      const own = createLiquidEngine();
      const templates = Array.from({ length: 1100 }, (_, index) =>
        own.compile(`Prompt ${index}${'\n'.repeat(index)}{% if a %}{{ a | upcase }}{% endif %}.`),
      );
      for (const index of [0, 1, 1099, 0]) {
        expect(await templates[index]?.render({ a: 'A' })).toBe(`Prompt ${index}${'\n'.repeat(index)}A.`);
      }
    });

    it('keeps the text runs out of reach of arguments and templates', async () => {
      const template = engine.compile('Hi {% if a %}{{ a }}{% endif %}!');
      expect(await template.render({ a: 'A', __promptyard_text__: 'X' })).toBe('Hi A!');
      // A source that names the hidden global is parsed in full, where the text tag does not exist.
      expect(await engine.render('[{{ __promptyard_text__ }}]{% if a %}{% endif %}', { __promptyard_text__: 'V' })).toBe('[V]');
      const error = await templateErrorOf(() => engine.compile('x\n{% __promptyard_text__ 0 %}', { file: 'p.md' }));
      expect(error.message).toBe('p.md:2: tag "__promptyard_text__" not found');
    });
  });

  it('rejects with the abort reason when the signal is aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    controller.abort(reason);
    const template = engine.compile('{{ a }}');
    await expect(template.render({ a: 'x' }, { signal: controller.signal })).rejects.toBe(reason);
    await expect(engine.render('text', {}, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('refuses partial tags without a library root', async () => {
    const cases = [
      ["{% render 'header' %}", 'p.md:2: {% render %}'],
      ["{% include 'header' %}", 'p.md:2: {% include %}'],
      ["{% layout 'base' %}", 'p.md:2: {% layout %}'],
      ["{% liquid\n  render 'header'\n%}", 'p.md:3: {% render %}'],
    ] as const;
    for (const [source, start] of cases) {
      const error = await templateErrorOf(() => engine.compile(`x\n${source}`, { file: 'p.md' }));
      expect(error.message).toBe(`${start} is not available here: partials need a library root, so inline the text instead`);
    }
  });

  describe('with a library root', () => {
    let base: string;
    let root: string;

    beforeAll(() => {
      base = mkdtempSync(path.join(tmpdir(), 'promptyard-templates-'));
      root = path.join(base, 'library');
      mkdirSync(path.join(root, 'sub'), { recursive: true });
      writeFileSync(path.join(root, 'header.md'), 'Project: {{ project }}');
      writeFileSync(path.join(root, 'sub', 'footer.md'), 'Owner: {{ owner }}');
      writeFileSync(path.join(root, 'bad.md'), 'fine\n{{ x | nope }}');
      writeFileSync(path.join(base, 'secret.md'), 'SECRET');
      symlinkSync(path.join(base, 'secret.md'), path.join(root, 'link.md'));
    });

    afterAll(() => {
      rmSync(base, { recursive: true, force: true });
    });

    it('renders and include partials, which see the arguments and count in the variables', async () => {
      const library = createLiquidEngine({ root });
      const template = library.compile("{% render 'header' %}\n{% include 'sub/footer' %}\n{% render 'header', project: 'Other' %}");
      expect(template.variables).toEqual(['project', 'owner']);
      expect(await template.render({ project: 'Yard', owner: 'Ada' })).toBe('Project: Yard\nOwner: Ada\nProject: Other');
    });

    it('stops the render itself, not only its promise, when the signal aborts midway', async () => {
      const library = createLiquidEngine({ root, renderLimitMs: 600_000 });
      const rendered = vi.spyOn(Liquid.prototype, 'render');
      try {
        // Each partial is read from disk, so the render yields between iterations.
        const template = library.compile("{% for i in (1..100000) %}{% render 'header' %}{% endfor %}");
        const controller = new AbortController();
        const reason = new Error('deadline');
        const outer = template.render({ project: 'Yard' }, { signal: controller.signal });
        controller.abort(reason);
        await expect(outer).rejects.toBe(reason);
        // liquidjs's own render ends at the next node too, instead of running its 100,000 partials.
        const inner = rendered.mock.results[0]?.value as Promise<unknown>;
        await expect(inner).rejects.toThrow(/deadline/);
      } finally {
        rendered.mockRestore();
      }
    });

    it('refuses partials outside the root, including through symlinks', async () => {
      const library = createLiquidEngine({ root });
      for (const name of ['../../etc/passwd', '/etc/passwd', '../secret', path.join(base, 'secret.md'), 'link']) {
        const error = await templateErrorOf(() => library.render(`{% render '${name}' %}`, {}, { file: 'p.md' }));
        expect(error.message).toBe(`p.md:1: partial "${name}" not found in the library`);
      }
    });

    it('reports a partial deleted after loading at its line when rendering', async () => {
      const library = createLiquidEngine({ root });
      writeFileSync(path.join(root, 'gone.md'), 'soon gone');
      const template = library.compile("intro\n{% render 'gone' %}", { file: 'p.md', lineOffset: 2 });
      rmSync(path.join(root, 'gone.md'));
      const error = await templateErrorOf(() => template.render({}));
      expect(error.message).toBe('p.md:4: partial "gone" not found in the library');
    });

    it('takes only quoted literal names, so no argument can choose the file', async () => {
      const library = createLiquidEngine({ root });
      for (const source of ['{% render header %}', "{% include 'sub/{{ which }}' %}"]) {
        const error = await templateErrorOf(() => library.compile(source, { file: 'p.md' }));
        expect(error.message).toMatch(/^p\.md:1: \{% (render|include) %\} takes a quoted file name/);
      }
    });

    it('names the partial and its own line when the error is inside it', async () => {
      const library = createLiquidEngine({ root });
      const error = await templateErrorOf(() => library.compile("{% render 'bad' %}", { file: 'p.md', lineOffset: 5 }));
      expect(error.message).toBe('bad.md:2: undefined filter: nope');
      expect(error.data).toEqual({ file: 'bad.md', line: 2 });
    });
  });
});
