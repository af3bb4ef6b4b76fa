// Decides whether the build outputs are missing or older than their sources.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');

/** Newest modification time (ms) of any file under the given paths. */
function newest(paths) {
  let latest = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (path.basename(p) === 'node_modules' || path.basename(p) === 'dist') return;
      for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
    } else {
      latest = Math.max(latest, stat.mtimeMs);
    }
  };
  for (const p of paths) visit(path.join(root, p));
  return latest;
}

const TARGETS = [
  {
    name: 'contract',
    output: 'packages/contract/dist/index.js',
    sources: ['packages/contract/src', 'packages/contract/package.json'],
  },
  {
    name: 'server',
    output: 'packages/server/dist/main.js',
    sources: ['packages/server/src', 'packages/server/package.json', 'packages/contract/src'],
  },
  {
    name: 'simulator',
    output: 'packages/simulator/dist/cli.js',
    sources: ['packages/simulator/src', 'packages/simulator/package.json', 'packages/contract/src'],
  },
  {
    name: 'web',
    output: 'packages/web/dist/index.html',
    sources: [
      'packages/web/src',
      'packages/web/index.html',
      'packages/web/vite.config.ts',
      'packages/web/package.json',
      // The build's own steps after Vite (static shells, compressed copies).
      'packages/web/scripts',
      'packages/contract/src',
    ],
  },
];

/** The parts whose build output is missing or stale. */
export function staleParts() {
  return TARGETS.filter(({ output, sources }) => {
    const out = path.join(root, output);
    if (!fs.existsSync(out)) return true;
    return newest(sources) > fs.statSync(out).mtimeMs;
  }).map((target) => target.name);
}

export { root };

/**
 * The server's entry and the Node flags it runs with (`SERVER_NODE_FLAGS`, ADR 19), read from the
 * build: call it once the build exists.
 */
export async function serverCommand() {
  const dist = path.join(root, 'packages/server/dist');
  const { SERVER_NODE_FLAGS } = await import(
    pathToFileURL(path.join(dist, 'runtime-flags.js')).href
  );
  return { main: path.join(dist, 'main.js'), nodeArgs: [...SERVER_NODE_FLAGS] };
}
