import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const sdk = {
  group: ['@modelcontextprotocol/*'],
  message: 'The MCP SDK is imported only behind the seams in packages/core/src/mcp and packages/router/src/sdk.',
};
const deepImports = {
  group: ['@promptyard/*/*', '!@promptyard/*/package.json'],
  message: 'Import a package through its public entry point only.',
};
const anyPromptyard = { group: ['@promptyard/*'], message: 'core depends on no other Promptyard package.' };
const siblings = {
  group: ['@promptyard/*', '!@promptyard/core'],
  message: 'A package imports only @promptyard/core: sibling packages meet through its interfaces.',
};
const apps = { group: ['**/apps/**'], message: 'Packages never import apps.' };
const restrict = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts', '**/test/**'],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'bench/.data/**'] },
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
  // One-way layering, core ← packages ← apps; later blocks win for the files they match.
  restrict(['packages/*/src/**'], [deepImports, siblings, sdk, apps]),
  restrict(['packages/core/src/**'], [deepImports, anyPromptyard, sdk, apps]),
  restrict(['packages/core/src/mcp/**'], [deepImports, anyPromptyard, apps]),
  // The router is an MCP proxy by nature; its SDK seam (client and low-level server) is src/sdk.
  restrict(['packages/router/src/sdk/**'], [deepImports, siblings, apps]),
  restrict(['apps/*/src/**'], [deepImports, sdk]),
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
