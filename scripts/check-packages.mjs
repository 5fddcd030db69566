#!/usr/bin/env node
// Checks every workspace package as a user would install it: packs each one with pnpm (which rewrites
// workspace: and catalog: ranges and applies publishConfig), then runs publint (warnings count) and
// @arethetypeswrong/cli (ESM-only profile: our packages ship no CommonJS) on the tarball, and checks
// what those two do not: LICENSE and README are packed, no source file is, and the packed exports are
// the workspace's without the @promptyard/source condition. Needs dist/: `pnpm lint` builds first.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const sourceCondition = '@promptyard/source';
// publint and attw are bins of root devDependencies, on PATH under `pnpm lint` (.cmd shims on Windows).
const shell = process.platform === 'win32';
// The pnpm running this script (CI starts it through npx, so it need not be on PATH).
const execpath = process.env.npm_execpath;
const pnpm = execpath && basename(execpath).startsWith('pnpm') ? [process.execPath, execpath] : ['pnpm'];

const withoutSource = (value) =>
  value === null || typeof value !== 'object'
    ? value
    : Object.fromEntries(
        Object.entries(value)
          .filter(([key]) => key !== sourceCondition)
          .map(([key, inner]) => [key, withoutSource(inner)]),
      );

const workspaceManifests = new Map(
  ['packages', 'apps']
    .flatMap((folder) => readdirSync(join(root, folder)).map((name) => join(root, folder, name, 'package.json')))
    .filter((path) => existsSync(path))
    .map((path) => JSON.parse(readFileSync(path, 'utf8')))
    .map((manifest) => [manifest.name, manifest]),
);

/** A child's exit code and its output, stdout and stderr together. */
const finished = (child) =>
  new Promise((resolve) => {
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: null, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code, output: output.trim() }));
  });

/** The problems of one tarball, and what to print for it. */
const checkTarball = async (filename) => {
  const problems = [];
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', filename, 'package/package.json'], { encoding: 'utf8' }));
  const { name } = manifest;
  const paths = execFileSync('tar', ['-tzf', filename], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''));
  for (const wanted of ['LICENSE', 'README.md', 'package.json']) {
    if (!paths.includes(wanted)) problems.push(`${name}: the tarball has no ${wanted}`);
  }
  const sources = paths.filter((path) => path.startsWith('src/'));
  if (sources.length > 0)
    problems.push(`${name}: the tarball ships sources (${sources.slice(0, 3).join(', ')}…); "files" should hold dist only`);

  if (JSON.stringify(manifest).includes(sourceCondition)) {
    problems.push(
      `${name}: the packed package.json still names the ${sourceCondition} condition; set publishConfig.exports to the exports without it`,
    );
  } else if (JSON.stringify(manifest.exports) !== JSON.stringify(withoutSource(workspaceManifests.get(name)?.exports))) {
    problems.push(
      `${name}: the packed exports are not the workspace's exports without ${sourceCondition}; bring publishConfig.exports in line with exports`,
    );
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|catalog):/.test(range)) problems.push(`${name}: ${field}.${dependency} was packed as "${range}"`);
    }
  }

  const [publint, attw] = await Promise.all([
    finished(spawn('publint', ['run', filename, '--strict'], { shell })),
    finished(spawn('attw', [filename, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color'], { shell })),
  ]);
  const report = [`── ${name} (${basename(filename)})`];
  for (const [tool, run] of Object.entries({ publint, attw })) {
    if (run.code === 0) {
      report.push(`${tool}: ok`);
    } else {
      report.push(run.output);
      problems.push(`${name}: ${tool} failed`);
    }
  }
  return { problems, report: report.join('\n') };
};

const outDir = mkdtempSync(join(tmpdir(), 'promptyard-packs-'));
const problems = [];
try {
  // The published packages only: the documentation site (docs/) is a private workspace package.
  const published = ['--filter', './packages/*', '--filter', './apps/*'];
  const pack = spawnSync(pnpm[0], [...pnpm.slice(1), ...published, '--recursive', 'pack', '--pack-destination', outDir], {
    cwd: root,
    encoding: 'utf8',
  });
  if (pack.status !== 0) {
    console.error(`${pack.stdout ?? ''}${pack.stderr ?? ''}`.trim());
    throw new Error(`pnpm pack failed (${pack.error?.message ?? `exit code ${pack.status}`}); run this script as \`pnpm lint:packages\``);
  }
  const queue = readdirSync(outDir)
    .filter((file) => file.endsWith('.tgz'))
    .map((file) => join(outDir, file));
  if (queue.length === 0) problems.push('pnpm packed no package');
  // Two tools per tarball, each a process: half as many tarballs at a time as there are cores.
  const workers = Array.from({ length: Math.max(1, Math.floor(availableParallelism() / 2)) }, async () => {
    for (let filename = queue.shift(); filename !== undefined; filename = queue.shift()) {
      const result = await checkTarball(filename);
      console.log(`${result.report}\n`);
      problems.push(...result.problems);
    }
  });
  await Promise.all(workers);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`Package checks failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('packages ok: publint, attw (esm-only), LICENSE and README packed, no sources, no source condition');
