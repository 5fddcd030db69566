import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const unitTests = ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/src/**/*.test.tsx', 'tests/lint/**/*.test.ts'];
// Unit tests that replace a module with vi.mock: each file gets a fresh module registry (the others share
// one per worker, and a replaced module would leak into the files after it). ESLint allows vi.mock here only.
const isolatedUnitTests = ['packages/*/src/**/*.isolated.test.ts'];

export default defineConfig({
  // Sibling packages from their sources, so a test never runs against a stale build (Vite's default
  // server conditions follow: setting the list replaces them).
  resolve: { conditions: ['@promptyard/source'] },
  ssr: { resolve: { conditions: ['@promptyard/source', 'module', 'node', 'development|production'] } },
  test: {
    // One worker per core (Vitest's default leaves one core free): most black-box tests wait on the binaries
    // they spawn. Measured on 2 cores: the whole run in 650 s against 860 s with one worker.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        // Without a fresh module registry per file the unit tests take half the time (43 s against 89 s on 2
        // cores): they hold no module state between files, and restore what they change in afterEach.
        test: { name: 'unit', include: unitTests, exclude: isolatedUnitTests, isolate: false, testTimeout: 15_000 },
      },
      {
        extends: true,
        test: { name: 'unit-isolated', include: isolatedUnitTests, testTimeout: 15_000 },
      },
      {
        extends: true,
        // Black-box tests spawn the built binaries (`pnpm build` first) and talk MCP to them.
        test: { name: 'e2e', include: ['apps/*/test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 30_000 },
      },
      {
        extends: true,
        // The built documentation site (`pnpm docs:build` first) in headless Chromium: links, anchors, search.
        test: {
          name: 'docs',
          include: ['tests/docs/**/*.test.ts'],
          exclude: ['tests/docs/readme-commands.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // The shell commands of README.md and the getting-started page, as written: `pnpm start` rebuilds
        // (turbo restores dist/ from its cache), so they run last and alone, after the cluster tests,
        // when no other test is starting a binary out of dist/.
        test: {
          name: 'docs-commands',
          include: ['tests/docs/readme-commands.test.ts'],
          testTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
      {
        extends: true,
        // Replicas of the built binaries behind nginx and Redis (deploy/, test-support/cluster.ts): after
        // the other projects (groupOrder), one cluster at a time, each test file its own.
        test: {
          name: 'cluster',
          include: ['tests/cluster/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        // The Containerfile's images under Podman (tests/container/): run alone by `pnpm test:container`,
        // which builds first (the image build reuses the host's turbo cache).
        test: {
          name: 'container',
          include: ['tests/container/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 900_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
