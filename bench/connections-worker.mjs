// Node process of connections.mjs: connects its share of nodes (each subscribed to its own
// node/<id>/params/remote), holds them, and after the server dies reconnects each one after a
// random 0–3 s delay, retrying on failure.
import mqtt from 'mqtt';

const JITTER_MS = 3_000;
const RETRY_MS = 500;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const random = (ms) => Math.floor(Math.random() * ms);

let url;
let nodes;
const clients = [];
let reconnecting = false;
let closing = false;
let reconnectAttempts = 0;
let reconnectFailures = 0;
let online = 0;

/** One connect + subscribe attempt; resolves to the client or null. */
function connectOnce(index) {
  return new Promise((resolve) => {
    const { node_id: nodeId, mqtt_password: password } = nodes[index];
    const client = mqtt.connect(url, {
      clientId: nodeId,
      username: nodeId,
      password,
      keepalive: 120,
      reconnectPeriod: 0,
      connectTimeout: 30_000,
    });
    const fail = () => {
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end(true);
      resolve(null);
    };
    client.once('error', fail);
    client.once('close', fail);
    client.once('connect', () => {
      client.subscribe(`node/${nodeId}/params/remote`, { qos: 1 }, (error, granted) => {
        if (error || !granted?.length || granted[0].qos === 128) return fail();
        client.removeAllListeners();
        client.on('error', () => undefined);
        client.once('close', () => onLost(index));
        resolve(client);
      });
    });
  });
}

function onLost(index) {
  clients[index] = null;
  online -= 1;
  if (closing) return;
  if (reconnecting) void reconnect(index);
}

/** After the server died: wait 0–3 s, then try until connected. */
async function reconnect(index) {
  await sleep(random(JITTER_MS));
  while (!closing) {
    reconnectAttempts += 1;
    const client = await connectOnce(index);
    if (client) {
      clients[index] = client;
      online += 1;
      return;
    }
    reconnectFailures += 1;
    await sleep(RETRY_MS + random(RETRY_MS));
  }
}

async function connectAll(concurrency) {
  const started = Date.now();
  let cursor = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (cursor < nodes.length) {
        const index = cursor++;
        const client = await connectOnce(index);
        if (client) {
          clients[index] = client;
          online += 1;
        } else failures += 1;
      }
    }),
  );
  return { connected: online, failures, connectS: (Date.now() - started) / 1000 };
}

process.on('message', async (message) => {
  if (message.type === 'connect') {
    ({ url, nodes } = message);
    const result = await connectAll(message.concurrency);
    reconnecting = true; // from now on a lost connection is retried with jitter
    process.send({ type: 'connected', ...result });
  } else if (message.type === 'status') {
    process.send({ type: 'status', online, reconnectAttempts, reconnectFailures });
  } else if (message.type === 'close') {
    closing = true;
    await Promise.all(clients.filter(Boolean).map((c) => c.endAsync(true).catch(() => undefined)));
    process.exit(0);
  }
});
