// Type-aware lint for every workspace. Dependencies point one way:
// contract <- server, web <- e2e; the web app never imports the server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'e2e/artifacts/**',
      '**/*.config.*',
      'scripts/**',
      'packages/web/scripts/**',
      'bench/**',
      '.ci/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // Fastify plugins are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@fleetdeck/*', 'node:*', 'fs', 'path', 'http', 'net'],
              message: 'contract holds contracts only: no I/O, no other workspace.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@fleetdeck/server', '@fleetdeck/server/*', '**/server/src/**'],
              message: 'The web app never imports the server.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@fleetdeck/web', '@fleetdeck/web/*', '**/web/src/**'],
              message: 'The server never imports the web app.',
            },
          ],
        },
      ],
    },
  },
  {
    // ADR 37: PostgreSQL may abort any write transaction with a deadlock or a serialization
    // failure, and the remedy is to run it again. A body with an effect outside the database
    // (a publish, an event, a file, a mail) cannot be run again: such a site disables this rule
    // on its line and says why.
    files: ['packages/server/src/**/*.ts'],
    ignores: ['packages/server/src/db/transaction-retry.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message:
            'Run transactions with transactionWithRetry (db/transaction-retry.ts, ADR 37); a body that cannot run twice disables this rule here with the reason.',
        },
      ],
    },
  },
);
