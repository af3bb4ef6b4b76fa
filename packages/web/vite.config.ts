import fs from 'node:fs';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

// The API server the dev server forwards to (`npm run dev -w packages/server` listens here).
const API_TARGET = 'http://127.0.0.1:8080';

/**
 * The dashboard's build version, `<package version>+<UTC build stamp>`: compiled into the SPA
 * (`__FLEETDECK_BUILD_VERSION__`) and written to dist/version.json, which the server reads to tell
 * an open tab that a newer build is served (the dashboard update modal, ADR 14).
 */
const packageVersion = (
  JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
const buildVersion = `${packageVersion}+${new Date()
  .toISOString()
  .replace(/[-:]/g, '')
  .replace(/\.\d+Z$/, 'Z')}`;

function buildVersionFile(): Plugin {
  return {
    name: 'fleetdeck-build-version',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: `${JSON.stringify({ version: buildVersion })}\n`,
      });
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), buildVersionFile()],
  define: {
    __FLEETDECK_BUILD_VERSION__: JSON.stringify(command === 'build' ? buildVersion : 'dev'),
  },
  resolve: {
    // `source` resolves workspace packages (@fleetdeck/contract) to their TypeScript sources.
    conditions: ['source', ...defaultClientConditions],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      treeshake: {
        // The contract is declarations only (schemas, constants, messages; no I/O). Saying so lets
        // a page that needs only MESSAGES leave the zod schemas, and zod, out of its bundle.
        moduleSideEffects: [
          { test: /[\\/]packages[\\/]contract[\\/]src[\\/]/, sideEffects: false },
        ],
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/v1': { target: API_TARGET, changeOrigin: false },
      '/insights': { target: API_TARGET, changeOrigin: false },
      '/healthz': { target: API_TARGET, changeOrigin: false },
      '/readyz': { target: API_TARGET, changeOrigin: false },
    },
  },
}));
