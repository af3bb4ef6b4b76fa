import net from 'node:net';
import { Aedes } from 'aedes';
import type { Logger } from '../logger.js';

/** The embedded MQTT broker that appliances connect to when no external broker is configured. */
export interface EmbeddedBroker {
  port: number;
  close(): Promise<void>;
}

/** MQTT CONNACK return code 4: bad user name or password. */
const BAD_USERNAME_OR_PASSWORD = 4;

/**
 * Starts Aedes on `port`. No node credentials exist yet (node registration arrives with the device
 * registry), so every CONNECT is refused: the broker never accepts an unauthenticated client.
 * Rejects with the listen error (e.g. EADDRINUSE) so the caller can explain it.
 */
export async function startEmbeddedBroker(
  port: number,
  host: string,
  logger: Logger,
): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker({
    authenticate: (client, username, _password, done) => {
      logger.info(
        { clientId: client.id, username },
        'mqtt connect refused: unknown node credentials',
      );
      const error = Object.assign(new Error('Bad user name or password'), {
        returnCode: BAD_USERNAME_OR_PASSWORD,
      });
      done(error, false);
    },
    authorizePublish: (_client, _packet, done) => done(new Error('not authorized')),
    authorizeSubscribe: (_client, _subscription, done) => done(new Error('not authorized'), null),
  });
  const server = net.createServer((socket) => broker.handle(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    port: boundPort,
    close: () =>
      new Promise<void>((resolve) => {
        broker.close(() => server.close(() => resolve()));
      }),
  };
}
