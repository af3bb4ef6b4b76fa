// Publisher process of ingest.mjs: connects its share of nodes, then each node publishes
// params/local at QoS 1 with one message in flight (the next goes out when the PUBACK arrives).
// Devices speak through the small client in mqtt-lite.mjs.
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
  const connectS = (Date.now() - connectStarted) / 1000;
  process.send({ type: 'connected', connected: clients.filter(Boolean).length, connectFailures });

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
  await new Promise((resolve) => process.once('message', resolve)); // "close"
  for (const client of clients) client?.end();
  await sleep(100);
  process.exit(0);
});
