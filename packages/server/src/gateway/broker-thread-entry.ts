/**
 * The broker thread's entry (ADR 23): runs the embedded broker, with the node port bridged to the
 * main thread, and answers the main thread's `start`, `publish` and `close` calls.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../logger.js';
import { startEmbeddedBroker, type EmbeddedBroker } from './embedded-broker.js';
import { NODE_MESSAGE, NodePortBridge } from './node-port-bridge.js';
import { ThreadChannel, type ThreadCall } from './thread-channel.js';

const parent = parentPort;
if (!parent) throw new Error('broker-thread-entry runs only as a worker thread');
const { logLevel } = workerData as { logLevel: string };
const logger = createLogger(logLevel);

let broker: EmbeddedBroker | undefined;

function requireBroker(): EmbeddedBroker {
  if (!broker) throw new Error('the broker has not started');
  return broker;
}

const channel: ThreadChannel = new ThreadChannel(
  (calls) => parent.postMessage(calls),
  (method, args) => {
    switch (method) {
      case 'start': {
        const [mqttPort, host] = args as [number, string];
        return startEmbeddedBroker(mqttPort, host, bridge, logger, forwardMessage).then(
          (started) => {
            broker = started;
            return started.port;
          },
        );
      }
      case 'publish': {
        // A Buffer arrives as a plain Uint8Array: view the same bytes as a Buffer again.
        const [nodeId, suffix, bytes] = args as [string, string, Uint8Array];
        const payload = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        return requireBroker().publishToNode(nodeId, suffix, payload);
      }
      case 'close':
        return broker?.close();
      default:
        throw new Error(`not a broker thread call: ${method}`);
    }
  },
);
const bridge = new NodePortBridge(channel);

/**
 * Hands an authorised node message to the main thread unparsed: its bytes as a latin1 string (one
 * character per byte, so binary frames survive), which crosses threads as a plain copy. Parsing
 * there costs what cloning a parsed document would, and a Buffer would drag its whole pool along.
 */
function forwardMessage(
  _port: unknown,
  _log: unknown,
  nodeId: string,
  suffix: string,
  payload: Buffer,
  at: number,
): 'ingested' {
  channel.notify(NODE_MESSAGE, nodeId, suffix, payload.toString('latin1'), at);
  return 'ingested';
}
parent.on('message', (calls: ThreadCall[]) => channel.receive(calls));
