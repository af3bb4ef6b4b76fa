// Node process of ota-fanout.mjs: connects its share of live nodes (each subscribed to its own
// node/<id>/otaurl), records every offer (job id, arrival time) and, while `progress` is on,
// answers an offer like firmware: 10 `in-progress` reports, then `success` (every 50th node of
// the whole fleet `failed`), each QoS 1 and sent when the previous one was acknowledged.
import mqtt from 'mqtt';

let nodes = [];
let clients = [];
let progress = false;
const offers = new Map(); // ota_job_id → { count, first, last }
const started = new Set(); // node index whose progress ran for a job
const stats = { sent: 0, acked: 0, failed: 0, firstPublishAt: null, lastAckAt: null, nodesDone: 0 };

const nowSeconds = () => Math.floor(Date.now() / 1000);

function publish(client, topic, body) {
  return new Promise((resolve) => {
    stats.sent += 1;
    stats.firstPublishAt ??= Date.now();
    client.publish(topic, JSON.stringify(body), { qos: 1 }, (error) => {
      if (error) stats.failed += 1;
      else {
        stats.acked += 1;
        stats.lastAckAt = Date.now();
      }
      resolve();
    });
  });
}

async function runUpdate(index, jobId) {
  const client = clients[index];
  const { node_id: nodeId, fleet_index: fleetIndex } = nodes[index];
  const topic = `node/${nodeId}/otastatus`;
  for (let step = 1; step <= 10; step += 1) {
    await publish(client, topic, {
      ota_job_id: jobId,
      status: 'in-progress',
      additional_info: `Downloaded ${step * 10}% Firmware Image`,
      ts: nowSeconds(),
    });
  }
  const failed = fleetIndex % 50 === 49;
  await publish(client, topic, {
    ota_job_id: jobId,
    status: failed ? 'failed' : 'success',
    additional_info: failed
      ? 'Flash write failed'
      : 'OTA Upgrade finished and verified successfully',
    ts: nowSeconds(),
  });
  stats.nodesDone += 1;
}

function onOffer(index, payload) {
  const at = Date.now();
  let jobId;
  try {
    jobId = JSON.parse(payload.toString()).ota_job_id;
  } catch {
    jobId = 'invalid';
  }
  const entry = offers.get(jobId) ?? { count: 0, first: at, last: at };
  entry.count += 1;
  entry.last = at;
  offers.set(jobId, entry);
  const key = `${jobId}\n${index}`;
  if (progress && !started.has(key)) {
    started.add(key);
    void runUpdate(index, jobId);
  }
}

function connectOne(url, index) {
  return new Promise((resolve) => {
    const { node_id: nodeId, mqtt_password: password } = nodes[index];
    const client = mqtt.connect(url, {
      clientId: nodeId,
      username: nodeId,
      password,
      keepalive: 300,
      reconnectPeriod: 0,
      connectTimeout: 30_000,
    });
    const fail = () => {
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end(true);
      resolve(false);
    };
    client.once('error', fail);
    client.once('connect', () => {
      client.subscribe(`node/${nodeId}/otaurl`, { qos: 1 }, (error, granted) => {
        if (error || !granted?.length || granted[0].qos === 128) return fail();
        client.removeAllListeners();
        client.on('error', () => undefined);
        client.on('message', (_topic, payload) => onOffer(index, payload));
        clients[index] = client;
        resolve(true);
      });
    });
  });
}

process.on('message', async (message) => {
  if (message.type === 'connect') {
    nodes = message.nodes;
    clients = new Array(nodes.length);
    let cursor = 0;
    let failures = 0;
    await Promise.all(
      Array.from({ length: message.concurrency }, async () => {
        while (cursor < nodes.length) if (!(await connectOne(message.url, cursor++))) failures += 1;
      }),
    );
    process.send({ type: 'connected', connected: nodes.length - failures, failures });
  } else if (message.type === 'progress') {
    progress = message.on;
    process.send({ type: 'progress' });
  } else if (message.type === 'stats') {
    process.send({ type: 'stats', offers: Object.fromEntries(offers), ...stats });
  } else if (message.type === 'close') {
    await Promise.all(clients.filter(Boolean).map((c) => c.endAsync(true).catch(() => undefined)));
    process.exit(0);
  }
});
