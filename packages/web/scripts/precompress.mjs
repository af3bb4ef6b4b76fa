// Writes a Brotli (.br) and a gzip (.gz) copy next to every text asset of the dashboard build,
// so the server sends the compressed bytes when the browser accepts them (@fastify/static's
// `preCompressed`) without compressing on every request. Run after `vite build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT = /\.(js|css|html|svg|json|txt)$/;
// Below this a compressed copy saves nothing worth a second file.
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (TEXT.test(entry.name)) yield full;
  }
}

let before = 0;
let brotli = 0;
let count = 0;
for (const file of files(dist)) {
  const bytes = fs.readFileSync(file);
  if (bytes.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
  before += bytes.length;
  brotli += br.length;
  count += 1;
}
console.log(
  `precompressed ${count} files: ${(before / 1024).toFixed(0)} KiB → ${(brotli / 1024).toFixed(0)} KiB with Brotli`,
);
