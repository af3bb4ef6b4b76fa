import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  generateMosquittoAuth,
  renderMosquittoConf,
  writeMosquittoAuthFiles,
  type MosquittoGatewayAccount,
  type MosquittoNodeCredential,
} from '../../src/gateway/mosquitto-config.js';

/** Where Debian installs the broker. */
export const MOSQUITTO_BINARY = '/usr/sbin/mosquitto';

/** Whether a Mosquitto binary is there to start our own brokers with. */
export const hasMosquitto = fs.existsSync(MOSQUITTO_BINARY);

/** One Mosquitto process of our own, on a free port, configured from the generated files. */
export interface OwnMosquitto {
  url: string;
  port: number;
  dir: string;
  /** What the broker wrote to stderr (its log), for failure messages. */
  log(): string;
  /** Stops the process (by its pid) and waits until it has exited. */
  stop(): Promise<void>;
  /**
   * Stops it and starts it again on the same port with the same files (a broker restart);
   * SIGKILL is a crash: no Last Will goes out and nothing is saved.
   */
  restart(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}

async function waitForPort(port: number, process: ChildProcess, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (process.exitCode !== null) throw new Error(`mosquitto exited with ${process.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts Mosquitto with the password and ACL files that `generateMosquittoAuth` makes for
 * `nodes` and the Fleetdeck `gateways` accounts, and the `mosquitto.conf` of `renderMosquittoConf`.
 * `open` drops the password and ACL files from that configuration (any client, any user name and
 * topic: for fleets whose credentials are made while the broker runs); `persistent` keeps
 * sessions and retained messages across a restart by SIGTERM, as a production broker does.
 */
export async function startOwnMosquitto(
  input: { nodes: MosquittoNodeCredential[]; gateways: MosquittoGatewayAccount[] },
  options: { open?: boolean; persistent?: boolean } = {},
): Promise<OwnMosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-mosquitto-'));
  // Started as root, Mosquitto drops to its own user before reading its files (and writing its
  // persistence file).
  fs.chmodSync(dir, options.persistent ? 0o777 : 0o755);
  const port = await freePort();
  const passwordFilePath = path.join(dir, 'passwd');
  const aclFilePath = path.join(dir, 'acl');
  await writeMosquittoAuthFiles({ passwordFilePath, aclFilePath }, generateMosquittoAuth(input), {
    passwordFile: 0o644,
  });
  const confPath = path.join(dir, 'mosquitto.conf');
  let conf = renderMosquittoConf({
    port,
    host: '127.0.0.1',
    passwordFilePath,
    aclFilePath,
    ...(options.persistent ? { persistenceLocation: dir } : {}),
  });
  if (options.open)
    conf = conf
      .split('\n')
      .filter((line) => !line.startsWith('password_file ') && !line.startsWith('acl_file '))
      .map((line) => (line === 'allow_anonymous false' ? 'allow_anonymous true' : line))
      .join('\n');
  fs.writeFileSync(
    confPath,
    `${conf}log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\n`,
  );

  let output = '';
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(MOSQUITTO_BINARY, ['-c', confPath], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child = started;
    try {
      await waitForPort(port, started);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output}`, {
        cause: error,
      });
    }
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.pid === undefined) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    process.kill(running.pid, signal);
    await exited;
  };
  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    dir,
    log: () => output,
    stop: async () => {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    restart: async (signal) => {
      await stop(signal);
      await start();
    },
  };
}
