/**
 * Oracle: the Jinja engine against Python's jinja2 configured as Prompty configures it. The cases
 * are fixtures/jinja2/cases.json (written for Promptyard) and prompty-corpus.json (microsoft/prompty's
 * Jinja Subset conformance corpus, runtime/python/prompty/prompty/jinja_subset/conformance/corpus.json
 * at 75e4d0e595348e129fd46aee053a2d68cc0887a9, the cases it marks jinja2_agrees); the goldens beside
 * them come from fixtures/jinja2/render_goldens.py. Where python3 has jinja2, the goldens are also
 * checked to still be what jinja2 renders.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createJinjaEngine } from './jinja-engine.js';

interface Case {
  readonly name: string;
  readonly template?: string;
  readonly files?: Readonly<Record<string, string>>;
  readonly inputs?: Readonly<Record<string, unknown>>;
}
interface Golden {
  readonly name: string;
  readonly rendered?: string;
  readonly error?: string;
}

const fixtures = fileURLToPath(new URL('../fixtures/jinja2/', import.meta.url));
const read = <T>(name: string): T => JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')) as T;
const sets = { 'golden.json': 'cases.json', 'prompty-corpus.golden.json': 'prompty-corpus.json' } as const;

const scratch = mkdtempSync(path.join(tmpdir(), 'jinja2-oracle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Renders a case as a Prompty file in a folder of its other files: text inputs as text, the rest as JSON. */
const renderCase = async (engine: ReturnType<typeof createJinjaEngine>, set: string, item: Case): Promise<string> => {
  const files = item.files ?? { prompt: item.template ?? '' };
  const root = path.join(scratch, set, item.name);
  for (const [name, text] of Object.entries(files)) {
    if (name === 'prompt') continue;
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  mkdirSync(root, { recursive: true });
  const args: Record<string, string> = {};
  const jsonArguments: string[] = [];
  for (const [name, value] of Object.entries(item.inputs ?? {})) {
    args[name] = typeof value === 'string' ? value : JSON.stringify(value);
    if (typeof value !== 'string') jsonArguments.push(name);
  }
  const template = engine.compile(files['prompt'] ?? '', { file: path.join(root, 'prompt.prompty'), root, jsonArguments });
  return template.render(args);
};

describe('the Jinja engine renders as Python’s jinja2 does with Prompty’s settings', () => {
  const engine = createJinjaEngine();
  for (const [golden, cases] of Object.entries(sets)) {
    const expected = new Map(read<Golden[]>(golden).map((entry) => [entry.name, entry]));
    for (const item of read<{ cases: Case[] }>(cases).cases) {
      it(`${cases}: ${item.name}`, async () => {
        const want = expected.get(item.name);
        expect(want, `no golden for ${item.name}: run render_goldens.py`).toBeDefined();
        if (want?.error !== undefined) {
          await expect(renderCase(engine, golden, item)).rejects.toMatchObject({ code: 'TEMPLATE_ERROR' });
        } else {
          expect(await renderCase(engine, golden, item)).toBe(want?.rendered);
        }
      });
    }
  }
});

describe('the goldens are still what jinja2 renders', () => {
  const probe = spawnSync('python3', ['-c', 'import jinja2'], { cwd: fixtures, encoding: 'utf8' });
  const available = probe.status === 0;
  if (!available)
    console.log(
      `skipping the jinja2 re-render: python3 with jinja2 is not available (${probe.stderr || probe.error?.message || 'no python3'})`,
    );

  it.skipIf(!available)('render_goldens.py --print matches the committed goldens', () => {
    const run = spawnSync('python3', ['render_goldens.py', '--print'], { cwd: fixtures, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    expect(run.status, run.stderr).toBe(0);
    const fresh = JSON.parse(run.stdout) as Record<string, Golden[]>;
    for (const golden of Object.keys(sets)) expect(fresh[golden], golden).toEqual(read<Golden[]>(golden));
  });
});
