/**
 * The house rules `pnpm lint` enforces, each shown to fail on code that breaks it: a function over
 * 80 lines, a file over 400, an unformatted file, a deep import, a router → auth import and an import
 * cycle made of type imports only. Lints code under virtual paths with the project's own ESLint and
 * Prettier configs, and runs the project's cycle check on a temporary tree.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `code` as if it were the file at `path` (relative to the root). */
const rulesBroken = async (path: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
};

const functionOf = (lines: number): string =>
  [
    'export const long = (): number => {',
    '  let total = 0;',
    ...Array.from({ length: lines - 4 }, (_, i) => `  total += ${i};`),
    '  return total;',
    '};',
    '',
  ].join('\n');

describe('pnpm lint', () => {
  it('refuses a function over 80 lines in a package or an app, and allows one of 80 and any length in tests', async () => {
    expect(await rulesBroken('packages/core/src/long.ts', functionOf(81))).toContain('max-lines-per-function');
    expect(await rulesBroken('apps/gateway/src/ui/long.tsx', functionOf(81))).toContain('max-lines-per-function');
    expect(await rulesBroken('packages/core/src/long.ts', functionOf(80))).toEqual([]);
    expect(await rulesBroken('packages/core/src/long.test.ts', functionOf(200))).toEqual([]);
  });

  it('refuses a source file over 400 lines', async () => {
    const file = Array.from({ length: 401 }, (_, i) => `export const value${i} = ${i};`).join('\n');
    expect(await rulesBroken('packages/mcp/src/big.ts', `${file}\n`)).toContain('max-lines');
    expect(await rulesBroken('packages/mcp/src/big.test.ts', `${file}\n`)).toEqual([]);
  });

  it('refuses a deep import into another package', async () => {
    const code = "import { createCardIndex } from '@promptyard/prompts/search';\nexport const index = createCardIndex;\n";
    expect(await rulesBroken('packages/router/src/cards.ts', code)).toContain('no-restricted-imports');
    expect(await rulesBroken('apps/server/src/cards.ts', code)).toContain('no-restricted-imports');
  });

  it('refuses an import of @promptyard/auth in the router, which apps may use', async () => {
    const code = "import { createAccessPolicy } from '@promptyard/auth';\nexport const policy = createAccessPolicy;\n";
    expect(await rulesBroken('packages/router/src/policy.ts', code)).toContain('no-restricted-imports');
    expect(await rulesBroken('apps/gateway/src/policy.ts', code)).toEqual([]);
  });

  it('refuses an unformatted file, with the MCP SDK line width', async () => {
    const options = {
      ...(await prettier.resolveConfig(join(root, 'packages/core/src/x.ts'))),
      filepath: join(root, 'packages/core/src/x.ts'),
    };
    expect(options.printWidth).toBe(140);
    expect(await prettier.check('export const a = {b:1}\n', options)).toBe(false);
    expect(await prettier.check('export const a = { b: 1 };\n', options)).toBe(true);
    const script = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(root, 'package.json'), 'utf8'))) as {
      scripts: Record<string, string>;
    };
    expect(script.scripts['lint:source']).toContain('lint:format');
    expect(script.scripts['lint:format']).toMatch(/^prettier --check .* \.$/);
  });

  describe('import cycles', () => {
    const dirs: string[] = [];
    afterAll(async () => {
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    it('refuses a cycle of type-only imports, and passes a tree without one', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'promptyard-cycles-'));
      dirs.push(dir);
      // The project's module resolution (`./b.js` is `b.ts`), as every package's tsconfig has it.
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'tsconfig.base.json') }));
      await writeFile(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A { readonly b?: B }\n");
      await writeFile(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { readonly a?: A }\n");
      await writeFile(join(dir, 'c.ts'), "import type { D } from './d.js';\nexport type C = D;\n");
      await writeFile(join(dir, 'd.ts'), 'export type D = string;\n');
      const check = (glob: string) => spawnSync(process.execPath, [join(root, 'scripts/check-cycles.mjs'), glob], { encoding: 'utf8' });
      const cyclic = check(`${dir}/*.ts`);
      expect(cyclic.status).toBe(1);
      // dpdm names the cycle from either end.
      expect(cyclic.stdout).toMatch(/(a\.ts -> .*b\.ts|b\.ts -> .*a\.ts)/);
      const acyclic = check(`${dir}/{c,d}.ts`);
      expect(acyclic.stdout).not.toMatch(/->/);
      expect(acyclic.status).toBe(0);
    });
  });
});
