#!/usr/bin/env node
// Builds a binary (apps/server, apps/gateway) as one ESM program: `node ../../scripts/bundle-binary.mjs`
// from the app's folder bundles src/cli.ts, every workspace package (from its TypeScript source, the
// `@promptyard/source` condition) and every dependency into dist/cli.js, with what loads on demand
// (`import()`: serving, the HTTP front, telemetry, the terminal UI …) split into chunks beside it.
// Node then reads a few files where it resolved, read and linked ~350 modules before the binary
// could start anything (bench/README.md: the gateway's start-up). The published packages stay as tsc
// builds them.
//
// Rolldown, not esbuild: esbuild assigns whole files to chunks, so a command that imports one
// function from a package's index statically loads every file that index re-exports; Rolldown
// leaves a module nobody uses out of the chunk graph, and the gateway's stdio servers start before
// its serving code is even read.
//
// The chunks sit in dist/ itself, one folder below the package's root as tsc's output did, so the
// binaries' `new URL('../package.json', import.meta.url)` and `new URL('cli.js', import.meta.url)`
// mean what they meant.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'rolldown';

const appDir = process.cwd();
const outdir = join(appDir, 'dist');

// Lazy CommonJS loads are written `createRequire(import.meta.url)('name')` in the sources (synchronous,
// on first use); a bundler follows only a plain `require('name')`, which it bundles as a module that
// runs on first call: the same laziness. Rewritten here, in the bundle's input only.
const lazyRequirePattern = /createRequire\(import\.meta\.url\)\(/g;
const requireBindingPattern = /^[ \t]*const require = createRequire\(import\.meta\.url\);$/m;

/** @type {import('rolldown').Plugin} */
const lazyRequires = {
  name: 'lazy-requires',
  transform: {
    // Only the sources that hold the pattern reach the handler; the rest are read once, by Rolldown.
    filter: { id: /[\\/]src[\\/].*\.tsx?$/, code: 'createRequire(import.meta.url)' },
    handler(source, id) {
      const code = source.replace(lazyRequirePattern, 'require(').replace(requireBindingPattern, '');
      if (code.includes('createRequire(import.meta.url)'))
        throw new Error(
          `${id}: a createRequire(import.meta.url) the bundle cannot follow; write it createRequire(import.meta.url)('name') or bind it "const require = createRequire(import.meta.url);"`,
        );
      // Every line stays where it was (only a few columns move), so the sources' maps still hold.
      return { code, map: null };
    },
  },
};

/**
 * `import text from './file.css?raw'` (as Vitest reads it too): the file's text as a string, so the
 * files a binary serves (the gateway console's htmx, its SSE extension and stylesheet) are inside it.
 * @type {import('rolldown').Plugin}
 */
const rawText = {
  name: 'raw-text',
  async resolveId(source, importer) {
    if (!source.endsWith('?raw')) return null;
    const resolved = await this.resolve(source.slice(0, -'?raw'.length), importer, { skipSelf: true });
    if (resolved == null) throw new Error(`${importer}: cannot find ${source}`);
    return { id: `${resolved.id}?raw` };
  },
  load: {
    filter: { id: /\?raw$/ },
    async handler(id) {
      const text = await readFile(id.slice(0, -'?raw'.length), 'utf8');
      return { code: `export default ${JSON.stringify(text)};`, moduleType: 'js' };
    },
  },
};

await rm(outdir, { recursive: true, force: true });
const output = await build({
  cwd: appDir,
  input: { cli: 'src/cli.ts' },
  platform: 'node',
  // `module` first: a package's ESM build where it has one (jsonc-parser's `main` is UMD, which no bundler follows).
  resolve: { conditionNames: ['@promptyard/source', 'node', 'import', 'default'], mainFields: ['module', 'main'] },
  // Ink's React DevTools bridge, loaded only with DEV=true (a dependency of neither Ink nor ours).
  external: ['react-devtools-core'],
  plugins: [lazyRequires, rawText],
  logLevel: 'warn',
  output: {
    dir: outdir,
    format: 'esm',
    chunkFileNames: '[name]-[hash].js',
    // Without comments and whitespace: V8 keeps every loaded script's source in the heap, and the
    // gateway held ~4 MB less after a benchmark's calls (bench/README.md). Names are kept, so stack
    // traces stay readable; the maps point them at the sources' files and lines under
    // `node --enable-source-maps`, without carrying the sources.
    comments: false,
    minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
    sourcemap: true,
    sourcemapExcludeSources: true,
  },
});

const files = output.output.filter((file) => file.type === 'chunk');
const bytes = files.reduce((sum, file) => sum + Buffer.byteLength(file.code), 0);
process.stderr.write(`bundled src/cli.ts into dist/: ${files.length} files, ${(bytes / 1024).toFixed(0)} KB\n`);
