// Writes the static shells (ADR 35): dist/shells/<name>.html, each a copy of dist/index.html
// whose #root already holds that shell's markup, rendered by the app's own components through
// the SSR build in dist-ssr (`vite build --ssr src/prerender/shells.tsx`). The markup is inert
// and hidden from assistive technology: it is a picture of the page until the app replaces it.
// dist/shells/manifest.json tells the server which shell fits which request. Run after both
// builds and before precompress.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const ssr = path.join(web, 'dist-ssr');
const EMPTY_ROOT = '<div id="root"></div>';
// The browser may paint a document before it has parsed all of it; a half-parsed shell would then
// grow (a layout shift). This link holds rendering until the element after the shell is parsed.
const SHELL_END_ID = 'static-shell-end';
const RENDER_BLOCKING_LINK = `<link rel="expect" href="#${SHELL_END_ID}" blocking="render" />`;

const index = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
if (!index.includes(EMPTY_ROOT)) {
  throw new Error(`dist/index.html must contain ${EMPTY_ROOT} for the static shells`);
}
const { renderShells, renderStalledNotice, SHELL_ATTRIBUTE } = await import(
  pathToFileURL(path.join(ssr, 'shells.js')).href
);
// A shell the app never takes over (its scripts failed, or scripting is off) says so after a
// while, with a reload link; without scripting at once.
const stalled = renderStalledNotice();
const out = path.join(dist, 'shells');
fs.mkdirSync(out, { recursive: true });
const written = [];
const { shells, manifest } = renderShells();
for (const [name, markup] of Object.entries(shells)) {
  const root = `<div id="root"><div ${SHELL_ATTRIBUTE}="${name}" inert aria-hidden="true">${markup}</div>${stalled.markup}<div id="${SHELL_END_ID}" hidden></div></div>`;
  const html = index
    .replace('</head>', `${RENDER_BLOCKING_LINK}\n  ${stalled.head}\n  </head>`)
    .replace(EMPTY_ROOT, root);
  fs.writeFileSync(path.join(out, `${name}.html`), html);
  written.push(`${name} (${(markup.length / 1024).toFixed(1)} KiB)`);
}
// Which shell the server sends for which request (packages/server/src/http/web-app.ts).
fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
// The SSR build is only a tool for this step; nothing serves it.
fs.rmSync(ssr, { recursive: true, force: true });
console.log(`static shells: ${written.join(', ')}`);
