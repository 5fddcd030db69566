import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const sdk = {
  group: ['@modelcontextprotocol/*'],
  message:
    "The MCP SDK is imported only behind the two seams: packages/mcp (serving) and packages/router/src/sdk (the gateway's client side).",
};
const deepImports = {
  group: ['@promptyard/*/*', '!@promptyard/*/package.json', '!@promptyard/core/testing', '!@promptyard/prompts/search'],
  message: 'Import a package through its public entry point only.',
};
const anyPromptyard = { group: ['@promptyard/*'], message: 'core depends on no other Promptyard package.' };
const siblings = {
  group: ['@promptyard/*', '!@promptyard/core', '!@promptyard/core/testing'],
  message: 'A domain package imports only @promptyard/core: sibling packages meet through its interfaces.',
};
const routerLayer = {
  group: ['@promptyard/*', '!@promptyard/core', '!@promptyard/mcp', '!@promptyard/prompts', '!@promptyard/auth'],
  message: 'The router builds on core, mcp (serving), auth (its [auth] section) and the search index of prompts only.',
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
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'bench/.data/**', '.tmp/**'] },
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
  // One-way layering, core ← domain packages and mcp ← router ← apps; later blocks win for the files they match.
  restrict(['packages/*/src/**'], [deepImports, siblings, sdk, apps, metricsLibrary, redisClient]),
  restrict(['packages/core/src/**'], [deepImports, anyPromptyard, sdk, apps, metricsLibrary, redisClient]),
  // The one seam to the SDK for serving.
  restrict(['packages/mcp/src/**'], [deepImports, siblings, apps, metricsLibrary, redisClient]),
  restrict(['packages/router/src/**'], [deepImports, routerLayer, sdk, apps, metricsLibrary, redisClient]),
  // The router is an MCP client of its servers; its upstream SDK seam is src/sdk.
  restrict(['packages/router/src/sdk/**'], [deepImports, routerLayer, apps, metricsLibrary, redisClient]),
  // The one home of the metrics library.
  restrict(['packages/telemetry/src/**'], [deepImports, siblings, sdk, apps, redisClient]),
  // The one home of the Redis client.
  restrict(['packages/cluster/src/**'], [deepImports, siblings, sdk, apps, metricsLibrary]),
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
);
