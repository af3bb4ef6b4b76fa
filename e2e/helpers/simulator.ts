import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  apiToken,
  type RunningServer,
} from './fleetdeck-server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SIMULATOR = path.join(ROOT, 'packages/simulator/dist/cli.js');

export interface RunningSimulator {
  process: ChildProcess;
  output: () => string;
  /** Ends the simulator (SIGKILL by default, like a power cut) and removes its state. */
  stop: (signal?: NodeJS.Signals) => void;
}

async function onlineCount(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/v1/admin/nodes?node_status=online&num_records=1`, {
    headers: { authorization: token },
  });
  return ((await response.json()) as { total: number }).total;
}

/**
 * Starts the built simulator CLI against a running server's embedded broker (or `brokerUrl`) with `nodes`
 * appliances (no flaps, no claims unless asked) and waits until all of them are online.
 */
export async function startSimulator(
  server: RunningServer,
  nodes: number,
  extraArgs: string[] = [],
  /** An external broker the server consumes from; default: the server's embedded broker. */
  brokerUrl?: string,
): Promise<RunningSimulator> {
  const mqttPort = /embedded broker on port (\d+)/.exec(server.output())?.[1];
  if (!mqttPort && !brokerUrl)
    throw new Error(`no MQTT port in the server output:\n${server.output()}`);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-sim-'));
  const child = spawn(
    process.execPath,
    [
      SIMULATOR,
      '--server',
      server.url,
      '--mqtt',
      brokerUrl ?? `mqtt://127.0.0.1:${mqttPort}`,
      '--nodes',
      String(nodes),
      '--state',
      path.join(stateDir, 'fleet.json'),
      '--seed',
      '7',
      '--flap-rate',
      '0',
      '--claim-share',
      '0',
      ...extraArgs,
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        FLEETDECK_ADMIN_EMAIL: E2E_ADMIN_EMAIL,
        FLEETDECK_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    fs.rmSync(stateDir, { recursive: true, force: true });
  };
  const token = await apiToken(server.url);
  const deadline = Date.now() + 30_000;
  while ((await onlineCount(server.url, token)) < nodes) {
    if (Date.now() > deadline || child.exitCode !== null) {
      stop();
      throw new Error(
        `the simulated fleet did not come online (exit ${child.exitCode}):\n${output}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { process: child, output: () => output, stop };
}
