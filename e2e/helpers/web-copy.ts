import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WEB_DIST = path.resolve(import.meta.dirname, '../../packages/web/dist');

/**
 * A private copy of the web build for one test server (`WEB_DIST_DIR`), so another build in the
 * same checkout cannot swap chunks under a running test, and a test may change files in it.
 */
export function copyWebBuild(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-e2e-web-'));
  fs.cpSync(WEB_DIST, dir, { recursive: true });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
