import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Sibling packages from their sources, so a test never runs against a stale build (Vite's default
  // server conditions follow: setting the list replaces them).
  resolve: { conditions: ['@promptyard/source'] },
  ssr: { resolve: { conditions: ['@promptyard/source', 'module', 'node', 'development|production'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/src/**/*.test.tsx', 'tests/lint/**/*.test.ts'],
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        // Black-box tests spawn the built binaries (`pnpm build` first) and talk MCP to them.
        test: { name: 'e2e', include: ['apps/*/test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 30_000 },
      },
      {
        extends: true,
        // The built documentation site (`pnpm docs:build` first) in headless Chromium: links, anchors, search.
        test: { name: 'docs', include: ['tests/docs/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 60_000 },
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
