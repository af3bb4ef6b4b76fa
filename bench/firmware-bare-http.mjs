// Bare peer of firmware-download.mjs: Node's own http server streaming one file with
// fs.createReadStream and single-range support, nothing else (no signature check, no framework).
// Sends { port } over IPC once listening.
import fs from 'node:fs';
import http from 'node:http';

const file = process.argv[2];
const size = fs.statSync(file).size;

const server = http.createServer((request, response) => {
  const match = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
  const headers = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes' };
  let start = 0;
  let end = size - 1;
  if (match) {
    start = Number(match[1]);
    end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
    if (start >= size || end < start) {
      response.writeHead(416, { 'content-range': `bytes */${size}` });
      response.end();
      return;
    }
    headers['content-range'] = `bytes ${start}-${end}/${size}`;
  }
  headers['content-length'] = end - start + 1;
  response.writeHead(match ? 206 : 200, headers);
  const stream = fs.createReadStream(file, { start, end, highWaterMark: 64 * 1024 });
  stream.pipe(response);
  response.once('close', () => stream.destroy());
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.once('SIGTERM', () => process.exit(0));
