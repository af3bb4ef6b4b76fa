import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// `source` makes workspace packages resolve to their TypeScript sources, so tests need no build.
// Vitest hands the server conditions to Node too (`--conditions`); `module` must not be one, or
// Node's own require() picks bundler-only ESM builds (the AWS SDK's extensionless `dist-es`).
const nodeConditions = defaultServerConditions.filter((condition) => condition !== 'module');

export default defineConfig({
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['source', ...nodeConditions] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['packages/server/test/**/*.int.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Tier B of QUALITY.md: longer measurements, `npm run test:extended` (not in `npm test`).
        extends: true,
        test: {
          name: 'extended',
          include: ['packages/server/test/extended/**/*.ext.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/tests/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
