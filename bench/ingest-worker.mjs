// Publisher process of ingest.mjs: connects its share of nodes, then each node publishes
// params/local at QoS 1 with one message in flight (the next goes out when the PUBACK arrives).
// Devices speak through the small client in mqtt-lite.mjs.
import { APPLIANCE_PROFILES } from '../packages/simulator/dist/appliance-profiles.js';
import { nodeConfigPayload } from '../packages/simulator/dist/payloads.js';
import { connectLite } from './mqtt-lite.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const PAD = 'x'.repeat(200);

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

process.once('message', async ({ url, nodes, durationS, connectConcurrency }) => {
  const clients = new Array(nodes.length);
  let connectFailures = 0;
  const connectStarted = Date.now();
  let cursor = 0;
  const connectOne = async (index) => {
    const { node_id: nodeId, mqtt_password: password } = nodes[index];
    try {
      clients[index] = await connectLite(url, {
        clientId: nodeId,
        username: nodeId,
        password,
        keepalive: 300,
      });
    } catch {
      connectFailures += 1;
    }
  };
  await Promise.all(
    Array.from({ length: connectConcurrency }, async () => {
      while (cursor < nodes.length) await connectOne(cursor++);
    }),
  );
  // Like firmware after every connect, each node first publishes its node config (the simulator's
  // washing-machine document, ~1.4 KB), so the server holds a realistic row per node.
  const connectS = (Date.now() - connectStarted) / 1000;
  const profile = APPLIANCE_PROFILES['Washing Machine'];
  const configStarted = Date.now();
  let configFailures = 0;
  await Promise.all(
    clients.map((client, i) => {
      if (!client) return undefined;
      const nodeId = nodes[i].node_id;
      // What ingest.mjs registers (registerNodes in lib.mjs); the same values leave the node's
      // filters and automatic groups as they are.
      const config = nodeConfigPayload(
        {
          node_id: nodeId,
          name: `Washer ${i}`,
          type: 'Washing Machine',
          model: 'FD-WM-9',
          fw_version: '3.1.2',
          tags: ['location:Pune', `esp.serial_num:${nodeId}`],
        },
        profile,
      );
      return client.publish(`node/${nodeId}/config`, JSON.stringify(config), 1).catch(() => {
        configFailures += 1;
      });
    }),
  );
  process.send({
    type: 'connected',
    connected: clients.filter(Boolean).length,
    connectFailures,
    connectS,
    configFailures,
    configS: (Date.now() - configStarted) / 1000,
  });

  await new Promise((resolve) => process.once('message', resolve)); // "go"
  const started = Date.now();
  const endAt = started + durationS * 1000;
  let acked = 0;
  let bytes = 0;
  let failed = 0;
  const latencies = [];
  const lastAcked = {};
  await Promise.all(
    clients.map(
      (client, i) =>
        new Promise((resolve) => {
          if (!client) return resolve();
          const nodeId = nodes[i].node_id;
          const topic = `node/${nodeId}/params/local`;
          let seq = 0;
          const next = () => {
            if (Date.now() >= endAt) return resolve();
            seq += 1;
            const mySeq = seq;
            const body = payload(mySeq, i);
            bytes += body.length;
            const sent = performance.now();
            client.publish(topic, body, 1).then(
              () => {
                acked += 1;
                lastAcked[nodeId] = mySeq;
                if ((acked & 15) === 0) latencies.push(performance.now() - sent);
                next();
              },
              () => {
                failed += 1;
                resolve();
              },
            );
          };
          next();
        }),
    ),
  );
  const elapsedS = (Date.now() - started) / 1000;

  /** Every node publishes `ratePerNode` messages a second for `durationS`, at most 20 in flight. */
  async function paced(ratePerNode, durationS) {
    const periodMs = 1000 / ratePerNode;
    const figures = { sent: 0, acked: 0, failed: 0, skipped: 0, latencies: [] };
    const pacedStarted = Date.now();
    const stopAt = pacedStarted + durationS * 1000;
    const inFlight = new Array(clients.length).fill(0);
    const outstanding = [];
    const timers = clients.map((client, i) => {
      if (!client) return null;
      const topic = `node/${nodes[i].node_id}/params/local`;
      const send = () => {
        if (Date.now() >= stopAt) return;
        if (inFlight[i] >= 20) {
          figures.skipped += 1; // the server is not keeping up with this node
          return;
        }
        inFlight[i] += 1;
        figures.sent += 1;
        const sentAt = performance.now();
        const body = payload(1_000_000 + figures.sent, i);
        outstanding.push(
          client.publish(topic, body, 1).then(
            () => {
              inFlight[i] -= 1;
              figures.acked += 1;
              if ((figures.acked & 7) === 0) figures.latencies.push(performance.now() - sentAt);
            },
            () => {
              inFlight[i] -= 1;
              figures.failed += 1;
            },
          ),
        );
      };
      // A random phase per node, so the fleet's messages are spread over the period.
      let interval = null;
      const first = setTimeout(() => {
        send();
        interval = setInterval(send, periodMs);
      }, Math.random() * periodMs);
      return () => {
        clearTimeout(first);
        clearInterval(interval);
      };
    });
    await sleep(durationS * 1000);
    for (const stop of timers) stop?.();
    await Promise.race([Promise.allSettled(outstanding), sleep(10_000)]);
    return { ...figures, elapsedS: (Date.now() - pacedStarted) / 1000 };
  }

  process.send({
    type: 'done',
    connectS,
    acked,
    failed,
    bytes,
    elapsedS,
    latencies,
    lastAcked,
  });
  // Then, when asked, the paced phase: each node publishes on its own clock (open loop, not
  // waiting for the PUBACK), so latency is measured at a given fleet rate instead of being set
  // by the number of nodes waiting for their acknowledgement.
  for (;;) {
    const message = await new Promise((resolve) => process.once('message', resolve));
    if (message?.type !== 'paced') break; // "close"
    process.send({ type: 'paced-done', ...(await paced(message.ratePerNode, message.durationS)) });
  }
  for (const client of clients) client?.end();
  await sleep(100);
  process.exit(0);
});
