// A bare Aedes (no auth, no ACL, in-memory persistence) on a free port: the B1/B2 peer.
// Child process of ingest.mjs; reports its port over IPC and runs until killed.
import net from 'node:net';
import { Aedes } from 'aedes';

const broker = await Aedes.createBroker();
const server = net.createServer(broker.handle);
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
process.on('SIGTERM', () => {
  server.close();
  broker.close(() => process.exit(0));
});
