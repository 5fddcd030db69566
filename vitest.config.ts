import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@promptyard/source'] },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/src/**/*.test.tsx'], testTimeout: 15_000 },
      },
      {
        extends: true,
        // Black-box tests spawn the built binaries (`pnpm build` first) and talk MCP to them.
        test: { name: 'e2e', include: ['apps/*/test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 30_000 },
      },
    ],
  },
});
