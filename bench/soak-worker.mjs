// Node process of soak.mjs (B10): connects its share of nodes with bench/mqtt-lite.mjs (each
// subscribed to its own node/<id>/otaurl, config published once as firmware does on connect), then
// publishes params/local at QoS 1 at the rate it is told, open loop (a scheduler tick every 10 ms
// sends what the rate says is due, round robin over the nodes, without waiting for PUBACKs) with
// at most `maxInFlight` unacknowledged messages per node: a send beyond that is skipped and
// counted, as a device with a bounded send window would. An OTA offer is answered like firmware:
// 3 `in-progress` reports, then `success` (every 50th node `failed`), each sent on the previous
// one's PUBACK. `stats` answers with the counters since the previous `stats` (PUBACK latencies as
// a mergeable log histogram) and resets them.
import { APPLIANCE_PROFILES } from '../packages/simulator/dist/appliance-profiles.js';
import { nodeConfigPayload } from '../packages/simulator/dist/payloads.js';
import { connectLite } from './mqtt-lite.mjs';

const PAD = 'x'.repeat(200);
const TICK_MS = 10;
/** Histogram buckets: bucket i holds latencies in (0.1 · 1.04^(i−1), 0.1 · 1.04^i] ms. */
const LOG_STEP = Math.log(1.04);
const bucketOf = (ms) => (ms <= 0.1 ? 0 : Math.ceil(Math.log(ms / 0.1) / LOG_STEP));

/** A 150–250 B params document carrying the node's sequence number. */
function payload(seq, i) {
  const body = {
    Washer: {
      seq,
      Power: true,
      Speed: seq % 5,
      Temperature: 30 + (seq % 30),
      Mode: 'Cotton',
      Remaining: '00:42:10',
      pad: '',
    },
  };
  const base = JSON.stringify(body).length;
  body.Washer.pad = PAD.slice(0, 150 + ((seq * 7 + i) % 100) - base);
  return JSON.stringify(body);
}

let nodes = [];
let clients = [];
let inFlight = new Int32Array(0);
let seqs = new Int32Array(0);
let ratePerS = 0;
let maxInFlight = 100;
let cursor = 0;
let due = 0; // fractional messages owed by the scheduler
let lastTick = performance.now();
let outstanding = 0; // params messages sent and not yet acknowledged or failed
let lost = 0; // connections that closed

const fresh = () => ({
  sent: 0,
  acked: 0,
  failed: 0,
  skipped: 0,
  bytes: 0,
  hist: {},
  maxTickGapMs: 0,
  otaOffers: 0,
  otaSent: 0,
  otaAcked: 0,
  otaFailed: 0,
});
let counters = fresh();

function record(ms) {
  const bucket = bucketOf(ms);
  counters.hist[bucket] = (counters.hist[bucket] ?? 0) + 1;
}

function sendOne(i) {
  const client = clients[i];
  if (!client || client.closed) return;
  if (inFlight[i] >= maxInFlight) {
    counters.skipped += 1; // the server has not acknowledged this node's window yet
    return;
  }
  seqs[i] += 1;
  const body = payload(seqs[i], i);
  inFlight[i] += 1;
  outstanding += 1;
  counters.sent += 1;
  counters.bytes += body.length;
  const sentAt = performance.now();
  client.publish(`node/${nodes[i].node_id}/params/local`, body, 1).then(
    () => {
      inFlight[i] -= 1;
      outstanding -= 1;
      counters.acked += 1;
      record(performance.now() - sentAt);
    },
    () => {
      inFlight[i] -= 1;
      outstanding -= 1;
      counters.failed += 1;
    },
  );
}

function tick() {
  const now = performance.now();
  const gap = now - lastTick;
  counters.maxTickGapMs = Math.max(counters.maxTickGapMs, gap);
  lastTick = now;
  if (ratePerS > 0 && clients.length > 0) {
    // A late tick sends what fell due meanwhile (capped at 2 s of it, not an unbounded burst).
    due = Math.min(due + (ratePerS * gap) / 1000, ratePerS * 2);
    const count = Math.floor(due);
    due -= count;
    for (let k = 0; k < count; k += 1) {
      sendOne(cursor);
      cursor = (cursor + 1) % clients.length;
    }
  }
  setTimeout(tick, TICK_MS);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const answered = new Set(); // `${jobId}\n${index}`: offers already answered

async function answerOffer(index, jobId) {
  const client = clients[index];
  const topic = `node/${nodes[index].node_id}/otastatus`;
  const report = async (status, info) => {
    counters.otaSent += 1;
    try {
      await client.publish(
        topic,
        JSON.stringify({ ota_job_id: jobId, status, additional_info: info, ts: nowSeconds() }),
        1,
      );
      counters.otaAcked += 1;
    } catch {
      counters.otaFailed += 1;
      throw new Error('connection closed');
    }
  };
  try {
    for (let step = 1; step <= 3; step += 1)
      await report('in-progress', `Downloaded ${step * 33}% Firmware Image`);
    if (nodes[index].fleet_index % 50 === 49) await report('failed', 'Flash write failed');
    else await report('success', 'OTA Upgrade finished and verified successfully');
  } catch {
    // counted in otaFailed
  }
}

function onMessage(index, topic, body) {
  if (!topic.endsWith('/otaurl')) return;
  counters.otaOffers += 1;
  let jobId;
  try {
    jobId = JSON.parse(body.toString()).ota_job_id;
  } catch {
    return;
  }
  const key = `${jobId}\n${index}`;
  if (answered.has(key)) return;
  answered.add(key);
  void answerOffer(index, jobId);
}

async function connectAll({ url, nodes: share, concurrency }) {
  nodes = share;
  clients = new Array(nodes.length);
  inFlight = new Int32Array(nodes.length);
  seqs = new Int32Array(nodes.length);
  let next = 0;
  let failures = 0;
  const started = Date.now();
  const profile = APPLIANCE_PROFILES['Washing Machine'];
  const connectOne = async (i) => {
    const node = nodes[i];
    try {
      const client = await connectLite(url, {
        clientId: node.node_id,
        username: node.node_id,
        password: node.mqtt_password,
        keepalive: 300,
      });
      client.onMessage = (topic, body) => onMessage(i, topic, body);
      client.onClose = () => {
        lost += 1;
      };
      const granted = await client.subscribe(`node/${node.node_id}/otaurl`, 1);
      if (granted === 128) throw new Error('subscribe refused');
      // Like firmware after every connect: the node config (the simulator's washing machine),
      // with the values it was registered with, so filters and automatic groups stay as they are.
      const config = nodeConfigPayload(
        {
          node_id: node.node_id,
          name: `Washer ${node.fleet_index}`,
          type: 'Washing Machine',
          model: node.model,
          fw_version: '3.1.2',
          tags: ['location:Pune', `esp.serial_num:${node.serial}`],
        },
        profile,
      );
      await client.publish(`node/${node.node_id}/config`, JSON.stringify(config), 1);
      clients[i] = client;
    } catch {
      failures += 1;
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < nodes.length) await connectOne(next++);
    }),
  );
  lost = 0;
  lastTick = performance.now();
  setTimeout(tick, TICK_MS);
  return { connected: nodes.length - failures, failures, connectS: (Date.now() - started) / 1000 };
}

process.on('message', async (message) => {
  if (message.type === 'connect') {
    process.send({ type: 'connected', ...(await connectAll(message)) });
  } else if (message.type === 'rate') {
    ratePerS = message.ratePerS;
    maxInFlight = message.maxInFlight ?? maxInFlight;
    due = 0;
    process.send({ type: 'rate' });
  } else if (message.type === 'stats') {
    const out = counters;
    counters = fresh();
    process.send({ type: 'stats', ...out, outstanding, lost, cpu: process.cpuUsage() });
  } else if (message.type === 'close') {
    ratePerS = 0;
    for (const client of clients) client?.end();
    setTimeout(() => process.exit(0), 200);
  }
});
