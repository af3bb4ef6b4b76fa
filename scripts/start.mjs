// `npm start`: build whatever is missing, then run the server on its embedded defaults.
import { spawn } from 'node:child_process';
import { root, serverCommand } from './build-state.mjs';
import './ensure-built.mjs';

const { main, nodeArgs } = await serverCommand();
const child = spawn(process.execPath, [...nodeArgs, main], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
