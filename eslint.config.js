import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const sdk = {
  group: ['@modelcontextprotocol/*'],
  message:
    "The MCP SDK is imported only behind the two seams: packages/mcp (serving) and packages/router/src/sdk (the gateway's client side).",
};
const deepImports = {
  group: ['@promptyard/*/*', '!@promptyard/*/package.json', '!@promptyard/core/testing', '!@promptyard/host/heap-settings'],
  message: 'Import a package through its public entry point only.',
};
const anyPromptyard = { group: ['@promptyard/*'], message: 'core and the search index depend on no other Promptyard package.' };
const siblings = {
  group: ['@promptyard/*', '!@promptyard/core', '!@promptyard/core/testing', '!@promptyard/search-index'],
  message: "A domain package imports only @promptyard/core and @promptyard/search-index: sibling packages meet through core's interfaces.",
};
const routerLayer = {
  group: ['@promptyard/*', '!@promptyard/core', '!@promptyard/mcp', '!@promptyard/search-index'],
  message:
    "The router builds on core, mcp (serving) and the search index only; the gateway's config file (and its [auth] section) is apps/gateway's.",
};
const hostLayer = {
  group: ['@promptyard/*', '!@promptyard/core', '!@promptyard/mcp', '!@promptyard/telemetry', '!@promptyard/cluster'],
  message: 'The host composes core, mcp (serving), telemetry and cluster only: what both binaries do around their MCP server.',
};
const apps = { group: ['**/apps/**'], message: 'Packages never import apps.' };
const metricsLibrary = {
  group: ['prom-client'],
  message: "The metrics library stays behind @promptyard/telemetry; everything else reports through core's Metrics contract.",
};
const redisClient = {
  group: ['ioredis'],
  message: "The Redis client stays behind @promptyard/cluster; everything else shares state through core's Cluster contract.",
};
const restrict = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts', '**/test/**'],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'bench/.data/**', '.tmp/**', 'docs/.vitepress/cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  // One-way layering, core ← domain packages and mcp ← router and host ← apps; later blocks win for the files they match.
  restrict(['packages/*/src/**'], [deepImports, siblings, sdk, apps, metricsLibrary, redisClient]),
  restrict(['packages/{core,search-index}/src/**'], [deepImports, anyPromptyard, sdk, apps, metricsLibrary, redisClient]),
  // The one seam to the SDK for serving.
  restrict(['packages/mcp/src/**'], [deepImports, siblings, apps, metricsLibrary, redisClient]),
  restrict(['packages/router/src/**'], [deepImports, routerLayer, sdk, apps, metricsLibrary, redisClient]),
  // The router is an MCP client of its servers; its upstream SDK seam is src/sdk.
  restrict(['packages/router/src/sdk/**'], [deepImports, routerLayer, apps, metricsLibrary, redisClient]),
  // The one home of the metrics library.
  restrict(['packages/telemetry/src/**'], [deepImports, siblings, sdk, apps, redisClient]),
  // The one home of the Redis client.
  restrict(['packages/cluster/src/**'], [deepImports, siblings, sdk, apps, metricsLibrary]),
  // What both binaries share around their MCP server; the Redis client stays behind cluster's lazy import.
  restrict(['packages/host/src/**'], [deepImports, hostLayer, sdk, apps, metricsLibrary, redisClient]),
  restrict(['apps/*/src/**'], [deepImports, sdk, metricsLibrary, redisClient]),
  // Functions one can read on one screen, files one can hold in one's head. Tests and their helpers are exempt.
  {
    files: ['packages/*/src/**/*.{ts,tsx}', 'apps/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', '**/test-*.ts', '**/test-*.tsx'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 400 }],
    },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  // The unit tests share a module registry per worker (vitest.config.ts): a module replaced in one file would
  // be replaced in the files after it.
  {
    files: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
    ignores: ['**/*.isolated.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'vi',
          property: 'mock',
          message: 'vi.mock replaces a module for every unit test file in the worker: name this file *.isolated.test.ts.',
        },
        {
          object: 'vi',
          property: 'doMock',
          message: 'vi.doMock replaces a module for every unit test file in the worker: name this file *.isolated.test.ts.',
        },
      ],
    },
  },
);
