// `npm start`: build whatever is missing, then run the server on its embedded defaults.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from './build-state.mjs';
import './ensure-built.mjs';

const child = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
