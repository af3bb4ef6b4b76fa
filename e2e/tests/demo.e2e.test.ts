import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiToken } from '../helpers/fleetdeck-server.js';

// `npm run demo` as an operator runs it: the built server and a 200-node simulated fleet. When
// the simulator dies, the server stays and shows the fleet offline; Enter brings the fleet back.
const ROOT = path.resolve(import.meta.dirname, '../..');
const DEMO_NODES = 200;

let demo: ChildProcess | undefined;
let output = '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-demo-'));

afterAll(async () => {
  if (demo && demo.exitCode === null && demo.signalCode === null) {
    demo.kill('SIGTERM');
    await new Promise((resolve) => {
      demo?.once('exit', resolve);
      setTimeout(resolve, 40_000);
    });
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The demo's children: pid and command line. */
function childrenOf(pid: number): Array<{ pid: number; args: string }> {
  let listed: string;
  try {
    listed = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are none
  }
  return listed
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [, child, args] = /^\s*(\d+)\s+(.*)$/.exec(line) ?? [];
      return { pid: Number(child), args: args ?? '' };
    });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm run demo', () => {
  it('keeps Fleetdeck running when the simulator dies, shows the fleet offline, and Enter brings it back', async () => {
    demo = spawn(process.execPath, ['scripts/demo.mjs'], {
      cwd: ROOT,
      env: { ...process.env, DEMO_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    demo.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    demo.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => demo?.once('exit', resolve));

    // Longer than the demo's own 60 s wait for the server, so a failure shows the demo's reason.
    await expect
      .poll(() => /Starting \d+ simulated appliances|^demo: /m.test(output), {
        timeout: 75_000,
        interval: 250,
      })
      .toBe(true);
    expect(output).toContain(`Starting ${DEMO_NODES} simulated appliances`);
    const url = /Dashboard:\s+(\S+)/.exec(output)?.[1];
    const userName = /User name:\s+(\S+)/.exec(output)?.[1];
    const password = /Password:\s+(\S+)/.exec(output)?.[1];
    expect(url, output).toMatch(/^http:\/\/localhost:\d+$/);
    const token = await apiToken(url!, userName, password);
    const total = async (status?: string) => {
      const query = status ? `&node_status=${status}` : '';
      const response = await fetch(`${url}/v1/admin/nodes?num_records=1${query}`, {
        headers: { authorization: token },
      });
      return ((await response.json()) as { total: number }).total;
    };

    await expect.poll(() => total('online'), { timeout: 60_000, interval: 500 }).toBe(DEMO_NODES);

    const simulator = childrenOf(demo.pid!).find((child) =>
      child.args.includes('simulator/dist/cli.js'),
    );
    const server = childrenOf(demo.pid!).find((child) => child.args.includes('server/dist/main'));
    expect(simulator, output).toBeDefined();
    expect(server, output).toBeDefined();
    process.kill(simulator!.pid, 'SIGKILL');

    // The whole fleet goes offline within seconds, and the server goes on serving.
    await expect.poll(() => total('offline'), { timeout: 15_000, interval: 250 }).toBe(DEMO_NODES);
    expect(await total('online')).toBe(0);
    expect(alive(server!.pid)).toBe(true);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    await expect
      .poll(() => output, { timeout: 5_000 })
      .toContain('Press Enter to start the simulated fleet again');

    // Enter: the same 200 nodes (from the state file) come back; none is registered twice.
    demo.stdin?.write('\n');
    await expect.poll(() => total('online'), { timeout: 60_000, interval: 500 }).toBe(DEMO_NODES);
    expect(await total()).toBe(DEMO_NODES);
    const restarted = childrenOf(demo.pid!).find((child) =>
      child.args.includes('simulator/dist/cli.js'),
    );
    expect(restarted?.pid).not.toBe(simulator!.pid);

    // Ctrl+C stops the simulator and the server, and the demo exits 0.
    demo.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(alive(server!.pid)).toBe(false);
    expect(alive(restarted!.pid)).toBe(false);
  }, 180_000);
});
