import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createJinjaEngine } from './jinja-engine.js';
import { templateErrorOf } from './test-helpers.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'jinja-compose-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A prompt folder with `files`; the prompt itself is `prompts/main.prompty` unless said. */
const folder = (name: string, files: Readonly<Record<string, string>>): string => {
  const root = path.join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
};

describe('Jinja templates that load other files', () => {
  const engine = createJinjaEngine();
  const compile = (root: string, source: string, more: { maxFileBytes?: number; file?: string } = {}) =>
    engine.compile(source, { file: path.join(root, more.file ?? 'prompts/main.prompty'), root, lineOffset: 3, ...more });

  it('finds a file beside the prompt first, then at the prompt root', async () => {
    const root = folder('search', { 'prompts/p.j2': 'beside', 'p.j2': 'root', 'q.j2': 'root only' });
    expect(await compile(root, "{% include 'p.j2' %}/{% include 'q.j2' %}").render({})).toBe('beside/root only');
  });

  it('serves an edit of a base or included file at the next render, and a file created since', async () => {
    const root = folder('fresh', { 'base.j2': '<{% block b %}{% endblock %}>', 'p.j2': 'one' });
    const template = compile(
      root,
      "{% extends 'base.j2' %}{% block b %}{% include 'p.j2' %}{% include 'later.j2' ignore missing %}{% endblock %}",
    );
    expect(await template.render({})).toBe('<one>');
    writeFileSync(path.join(root, 'p.j2'), 'two, longer');
    writeFileSync(path.join(root, 'base.j2'), '[{% block b %}{% endblock %}]');
    expect(await template.render({})).toBe('[two, longer]');
    writeFileSync(path.join(root, 'later.j2'), '+new');
    expect(await template.render({})).toBe('[two, longer+new]');
  });

  it('counts the variables of included files as arguments, not the names of imported ones', () => {
    const root = folder('variables', { 'p.j2': '{{ topic }}', 'm.j2': '{% macro show() %}{{ hidden }}{% endmacro %}' });
    expect(compile(root, "{% import 'm.j2' as m %}{{ m.show() }}{% include 'p.j2' %}{{ who }}").variables).toEqual(['topic', 'who']);
  });

  it('refuses names that leave the root, symlinks leading out, files over the limit and missing files, at their line', async () => {
    const outside = folder('outside', { 'secret.j2': 'secret' });
    const root = folder('guarded', { 'big.j2': 'x'.repeat(200) });
    symlinkSync(path.join(outside, 'secret.j2'), path.join(root, 'link.j2'));
    const up = await templateErrorOf(() => compile(root, "\n{% include '../outside/secret.j2' %}"));
    expect(up.message).toMatch(
      /main\.prompty:5: "\.\.\/outside\/secret\.j2" is not a template name: write a path from the prompt's folder/,
    );
    const link = await templateErrorOf(() => compile(root, "{% include 'link.j2' %}"));
    expect(link.message).toMatch(/"link\.j2" leads outside the prompt root/);
    const big = await templateErrorOf(() => compile(root, "{% include 'big.j2' %}", { maxFileBytes: 100 }));
    expect(big.message).toMatch(/"big\.j2" has 200 bytes, over the limit of 100/);
    writeFileSync(path.join(root, '.env'), 'TOKEN=x');
    const hidden = await templateErrorOf(() => compile(root, "{% include '.env' %}"));
    expect(hidden.message).toMatch(/"\.env" is a hidden file or in a hidden folder, which templates never load/);
    const missing = await templateErrorOf(() => compile(root, "{% extends 'nope.j2' %}"));
    expect(missing.message).toMatch(/main\.prompty:4: \{% extends %\}: no template "nope\.j2" beside the prompt or at the prompt root/);
  });

  it('refuses a file that loads itself, naming the chain', async () => {
    const root = folder('cycle', { 'a.j2': "{% include 'b.j2' %}", 'b.j2': "{% include 'a.j2' %}" });
    const error = await templateErrorOf(() => compile(root, "{% include 'a.j2' %}"));
    expect(error.message).toMatch(/\{% include %\} of a template that loads itself \(.*a\.j2 → .*b\.j2 → .*a\.j2\) is not supported yet/);
  });

  it('names the included file and its line when it fails', async () => {
    const root = folder('located', { 'p.j2': 'fine\n{{ x | bogus }}', 'r.j2': 'a\n\n{% for i in n | int %}{% endfor %}' });
    const parse = await templateErrorOf(() => compile(root, "{% include 'p.j2' %}"));
    expect(parse.message).toMatch(/located[/\\]p\.j2:2: unknown filter "bogus"/);
    const render = await templateErrorOf(() => compile(root, "{% include 'r.j2' %}").render({ n: '3' }));
    expect(render.message).toMatch(/located[/\\]r\.j2:3: Expected iterable/);
  });

  it('names the line of a failing statement inside a block, in the child and in the base', async () => {
    const root = folder('block-lines', {
      'base.j2': '<\n{% block b %}{% endblock %}\n{% block c %}{% for i in m | int %}{% endfor %}{% endblock %}>',
    });
    const child = compile(root, "{% extends 'base.j2' %}\n{% block b %}\n{% for i in n | int %}{% endfor %}{% endblock %}");
    expect((await templateErrorOf(() => child.render({ n: '3' }))).message).toMatch(/main\.prompty:6: Expected iterable/);
    expect((await templateErrorOf(() => child.render({ m: '4' }))).message).toMatch(/block-lines[/\\]base\.j2:3: Expected iterable/);
  });

  it('keeps the render budget across included files', async () => {
    const root = folder('budget', { 'loop.j2': '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}' });
    const bounded = createJinjaEngine({ renderLimitMs: 50 });
    const template = bounded.compile("{% include 'loop.j2' %}", { file: path.join(root, 'main.prompty'), root });
    expect((await templateErrorOf(() => template.render({}))).message).toMatch(/rendering took longer than 50 ms/);
  });
});

describe('Jinja2 constructs the engine does not render yet', () => {
  const engine = createJinjaEngine();
  const cases: [string, string, RegExp][] = [
    [
      'recursive loops',
      '{% for x in xs recursive %}{{ loop(x.children) }}{% endfor %}',
      /^line 1: \{% for … recursive %\}.* is not supported yet: write a macro/,
    ],
    ['autoescape true', 'a\n{% autoescape true %}{{ x }}{% endautoescape %}', /^line 2: \{% autoescape true %\}.* is not supported yet: /],
    [
      'loop.changed',
      '{% for x in xs %}{{ loop.changed(x) }}{% endfor %}',
      /loop\.changed\(\) is not supported yet: compare with loop\.previtem/,
    ],
    [
      'a computed file name',
      '{% include name %}',
      /\{% include %\} of a file name computed at render time is not supported yet: write the file name in quotes/,
    ],
    ['a Jinja2 filter the engine lacks', '\n{{ x | truncate(5) }}', /^line 2: filter "truncate" is not supported yet: /],
    ['a test with an argument', '\n{% if n is divisibleby(3) %}x{% endif %}', /^line 2: a test with an argument .* is not supported yet: /],
    [
      'a file outside a prompt folder',
      "{% import 'm.j2' as m %}",
      /\{% import %\} outside a prompt folder is not supported yet: write the template inline/,
    ],
  ];
  for (const [what, source, message] of cases) {
    it(`says so for ${what}`, async () => {
      expect((await templateErrorOf(() => engine.compile(source))).message).toMatch(message);
    });
  }
});
