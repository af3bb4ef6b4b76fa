import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/fleetdeck-server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = path.join(ROOT, 'packages/server/dist/main.js');
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-start-'));
  dirs.push(dir);
  return dir;
}

/**
 * Runs the built server (or `script`, e.g. the one behind `npm start`) until `until` matches its
 * output or it exits; then stops it.
 */
function run(
  env: Record<string, string>,
  until: RegExp,
  script = ENTRY,
): Promise<{ output: string; exitCode: number | null; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out; output so far:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output) && child.exitCode === null) child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ output, exitCode: code, url: `http://127.0.0.1:${env.PORT}` });
    });
  });
}

async function occupy(port: number): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

describe('npm start behaviour of the built server', () => {
  it('prints the URL and, on first start only, generated admin credentials that work', async () => {
    const dir = dataDir();
    const port = String(await freePort());
    const first = await new Promise<{ output: string; password: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [ENTRY], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          PORT: port,
          MQTT_PORT: '0',
          DATA_DIR: dir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(output));
      }, 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Password:\s+(\S+)/.exec(output);
        if (match?.[1] && /Fleetdeck is running at/.test(output)) {
          const password = match[1];
          void fetch(`http://127.0.0.1:${port}/v1/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ user_name: 'admin@fleetdeck.local', password }),
          }).then((response) => {
            expect(response.status).toBe(200);
            child.kill('SIGTERM');
            child.once('exit', (code, signal) => {
              clearTimeout(timer);
              expect({ code, signal, output }).toMatchObject({ code: 0, signal: null });
              resolve({ output, password });
            });
          }, reject);
        }
      });
    });
    expect(first.output).toContain(`Fleetdeck is running at http://localhost:${port}`);
    expect(first.output).toContain('User name: admin@fleetdeck.local');
    expect(first.password).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d).{16,}$/);

    const second = await run(
      { PORT: port, MQTT_PORT: '0', DATA_DIR: dir },
      /Fleetdeck is running at/,
    );
    expect(second.output).toContain('Fleetdeck is running at');
    expect(second.output).not.toContain('Password:');
    expect(second.exitCode).toBe(0);
  });

  it('runs the server with its Node flags through npm start, and says so when started without them', async () => {
    const env = async () => ({
      PORT: String(await freePort()),
      MQTT_PORT: '0',
      DATA_DIR: dataDir(),
      LOG_LEVEL: 'info',
    });
    const missing =
      'started without the Node flags --max-semi-space-size=32 --min-semi-space-size=32';
    const viaStart = await run(
      await env(),
      /Fleetdeck is running at/,
      path.join(ROOT, 'scripts/start.mjs'),
    );
    expect(viaStart.output).toContain('Fleetdeck is running at');
    expect(viaStart.output).not.toContain(missing);
    const bare = await run(await env(), /Fleetdeck is running at/);
    expect(bare.output).toContain('Fleetdeck is running at');
    expect(bare.output).toContain(missing);
  });

  it('exits with one clear line naming PORT when the HTTP port is taken', async () => {
    const port = await freePort();
    const blocker = await occupy(port);
    try {
      const result = await run({ PORT: String(port), MQTT_PORT: '0', DATA_DIR: dataDir() }, /$^/);
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain(
        `fleetdeck: HTTP port ${port} is already in use: set PORT to a free port`,
      );
      expect(result.output).not.toMatch(/at .*\.js:\d+/);
    } finally {
      blocker.close();
    }
  });

  it('exits with one clear line naming MQTT_PORT and MQTT_URL when the MQTT port is taken', async () => {
    const mqttPort = await freePort();
    const blocker = await occupy(mqttPort);
    try {
      const result = await run(
        { PORT: String(await freePort()), MQTT_PORT: String(mqttPort), DATA_DIR: dataDir() },
        /$^/,
      );
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain(`fleetdeck: MQTT port ${mqttPort} is already in use`);
      expect(result.output).toContain('set MQTT_PORT to a free port, or MQTT_URL');
      expect(result.output).not.toContain('Password:');
    } finally {
      blocker.close();
    }
  });

  it('refuses a bad configuration with a list of what is wrong', async () => {
    const result = await run({ PORT: 'http', DEPLOYMENT_MODE: 'cloud', DATA_DIR: dataDir() }, /$^/);
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain('Invalid configuration');
    expect(result.output).toContain('PORT');
    expect(result.output).toContain('DEPLOYMENT_MODE');
  });
});
