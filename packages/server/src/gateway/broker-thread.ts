import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import type { NodeGatewayPort } from '../services/nodes/node-gateway.port.js';
import { withYoungGeneration } from '../worker-heap.js';
import type { EmbeddedBroker } from './embedded-broker.js';
import { outboundMessage } from './node-gateway.js';
import { NODE_MESSAGE, callNodePort } from './node-port-bridge.js';
import { routeNodeMessage } from './node-message-router.js';
import { ThreadChannel, type ThreadCall } from './thread-channel.js';

/**
 * The broker thread's young generation: fixed semi-spaces of 16 MiB (V8's default maximum), not
 * the main thread's 32 MiB (SERVER_NODE_FLAGS), fixed like them (QUALITY R7: a young generation
 * left to grow by doublings reads as a memory drift for as long as the server runs).
 */
export const BROKER_SEMI_SPACE_MIB = 16;

/**
 * The worker for the broker thread: the built `broker-thread-entry.js` next to this file, or, when
 * the server runs from its TypeScript sources (tests, `npm run dev`), a small script that loads the
 * `.ts` entry through tsx's API (Node 20 does not carry `--import` loaders into a worker).
 */
export function brokerWorker(workerData: { logLevel: string }): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return withYoungGeneration(
      BROKER_SEMI_SPACE_MIB,
      () => new Worker(new URL('./broker-thread-entry.js', import.meta.url), { workerData }),
    );
  }
  const entry = new URL('./broker-thread-entry.ts', import.meta.url).href;
  // tsx's ESM API (`tsx/esm/api` under the import condition; require() would find its CJS twin).
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const script = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  return withYoungGeneration(
    BROKER_SEMI_SPACE_MIB,
    () => new Worker(script, { eval: true, workerData, execArgv: ['--conditions=source'] }),
  );
}

/** How `startBrokerThread` runs. */
export interface BrokerThreadOptions {
  /** Called once if the thread dies while the broker is meant to be running. */
  onFailure?: (error: Error) => void;
  /** A thread made by `brokerWorker` to run in (tests end it to see a failure); a new one if not. */
  worker?: Worker;
}

/**
 * Starts the embedded broker in a worker thread of its own (ADR 23), with the same contract as
 * `startEmbeddedBroker`. Aedes, its sockets, MQTT parsing, the ACL and the size limits run there;
 * node messages are parsed and checked (`routeNodeMessage`), and authentication, connectivity and
 * the ingest run, on this thread through `port`. A QoS 1 PUBACK still waits for
 * `port.whenDurable()`. Rejects with the listen error (EADDRINUSE keeps its code).
 */
export async function startBrokerThread(
  mqttPort: number,
  host: string,
  port: NodeGatewayPort,
  logger: Logger,
  options: BrokerThreadOptions = {},
): Promise<EmbeddedBroker> {
  const log = logger.child({ component: 'mqtt-broker-thread' });
  const worker = options.worker ?? brokerWorker({ logLevel: logger.level });
  const channel = new ThreadChannel(
    (calls) => worker.postMessage(calls),
    (method, args) => {
      if (method !== NODE_MESSAGE) return callNodePort(port, method, args);
      const [nodeId, suffix, latin1, at] = args as [string, string, string, number];
      return routeNodeMessage(port, log, nodeId, suffix, Buffer.from(latin1, 'latin1'), at);
    },
  );
  let state: 'starting' | 'running' | 'closing' = 'starting';
  const died = (error: Error) => {
    channel.close(error);
    if (state === 'running') {
      state = 'closing';
      log.error({ err: error }, 'the MQTT broker thread stopped');
      options.onFailure?.(error);
    }
  };
  worker.on('message', (calls: ThreadCall[]) => channel.receive(calls));
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`the MQTT broker thread exited with code ${code}`)));

  let boundPort: number;
  try {
    boundPort = (await channel.request('start', mqttPort, host)) as number;
  } catch (error) {
    state = 'closing';
    await worker.terminate();
    throw error;
  }
  state = 'running';

  let closing: Promise<void> | undefined;
  return {
    port: boundPort,
    publishToNode: async (nodeId, suffix, payload) => {
      const message = outboundMessage(nodeId, suffix, payload);
      // A copy of just these bytes: a small Buffer is a view into a shared pool, and cloning a
      // view clones the whole pool.
      await channel.request('publish', nodeId, suffix, new Uint8Array(message.payload));
    },
    close: () => {
      closing ??= (async () => {
        if (state === 'running') {
          state = 'closing';
          await channel.request('close').catch((error: unknown) => {
            log.warn({ err: error }, 'the MQTT broker thread did not close cleanly');
          });
        }
        await worker.terminate();
      })();
      return closing;
    },
  };
}
