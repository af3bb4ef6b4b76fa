// Node process of connections.mjs: connects its share of nodes (each subscribed to its own
// node/<id>/params/remote), holds them, and after the server dies reconnects each one after a
// random 0–3 s delay, retrying on failure. Devices speak through the small client in mqtt-lite.mjs.
import { connectLite } from './mqtt-lite.mjs';

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

let birth = false; // external broker: Last Will + retained birth on node/<id>/connection
const stayDown = new Set(); // indexes of nodes that do not come back once their connection is lost

/** One connect + subscribe (+ birth) attempt; resolves to the client or null. */
async function connectOnce(index) {
  const { node_id: nodeId, mqtt_password: password } = nodes[index];
  const topic = `node/${nodeId}/connection`;
  // Sessions grow with every connection, so a late will never undoes a newer birth.
  const session = Date.now();
  let client;
  try {
    client = await connectLite(url, {
      clientId: nodeId,
      username: nodeId,
      password,
      keepalive: 120,
      ...(birth
        ? {
            will: {
              topic,
              payload: JSON.stringify({ connected: false, session }),
              qos: 1,
              retain: true,
            },
          }
        : {}),
    });
    const granted = await client.subscribe(`node/${nodeId}/params/remote`, 1);
    if (granted === 128) throw new Error('subscription refused');
    if (birth) {
      const payload = JSON.stringify({ connected: true, timestamp: Date.now(), session });
      await client.publish(topic, payload, 1, true);
    }
  } catch {
    client?.destroy();
    return null;
  }
  client.onClose = () => onLost(index);
  return client;
}

function onLost(index) {
  clients[index] = null;
  online -= 1;
  if (closing || stayDown.has(index)) return;
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
    birth = message.birth === true;
    const result = await connectAll(message.concurrency);
    reconnecting = true; // from now on a lost connection is retried with jitter
    process.send({ type: 'connected', ...result });
  } else if (message.type === 'stayDown' || message.type === 'drop') {
    // Every `every`-th node (from `offset`) stays away once its connection is lost; 'drop' also
    // cuts its connection now, without DISCONNECT, so the broker publishes its Last Will.
    let count = 0;
    for (let index = message.offset; index < nodes.length; index += message.every) {
      stayDown.add(index);
      count += 1;
      if (message.type === 'drop') clients[index]?.destroy();
    }
    process.send({ type: message.type, count });
  } else if (message.type === 'status') {
    process.send({ type: 'status', online, reconnectAttempts, reconnectFailures });
  } else if (message.type === 'close') {
    closing = true;
    for (const client of clients) {
      if (client) client.onClose = null;
      client?.end();
    }
    await sleep(100);
    process.exit(0);
  }
});
