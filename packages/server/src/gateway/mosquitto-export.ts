import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { brokerCredentials } from '../repositories/node.repository.js';
import {
  hashMosquittoPassword,
  renderMosquittoAclFile,
  renderMosquittoPasswordFile,
} from './mosquitto-config.js';

/** Mosquitto's `password_file` and `acl_file` for every registered node plus Fleetdeck's account. */
export async function exportMosquittoAuth(
  db: Kysely<Database>,
  gateway: { username: string; password: string },
): Promise<{ passwordFile: string; aclFile: string; nodes: number }> {
  const entries = [{ username: gateway.username, hash: hashMosquittoPassword(gateway.password) }];
  for await (const { nodeId, hash } of brokerCredentials(db))
    entries.push({ username: nodeId, hash });
  return {
    passwordFile: renderMosquittoPasswordFile(entries),
    aclFile: renderMosquittoAclFile([gateway.username]),
    nodes: entries.length - 1,
  };
}
