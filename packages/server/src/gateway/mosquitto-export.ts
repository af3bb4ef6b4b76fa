import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { brokerCredentials } from '../repositories/node.repository.js';
import {
  hashMosquittoPassword,
  renderMosquittoAclFile,
  renderMosquittoPasswordFile,
  type MosquittoPasswordEntry,
} from './mosquitto-config.js';

/**
 * The Fleetdeck accounts of files written before: the `user` blocks of the ACL file with their
 * hashes from the password file. Each instance of a scale-out has its own account (two sharing one
 * would keep taking each other's connection over), so a re-run for one instance keeps the others'.
 */
export function readGatewayAccounts(
  passwordFile: string,
  aclFile: string,
): MosquittoPasswordEntry[] {
  const names = new Set(
    aclFile
      .split('\n')
      .map((line) => /^user (\S+)$/.exec(line.trim())?.[1])
      .filter((name): name is string => name !== undefined),
  );
  const accounts: MosquittoPasswordEntry[] = [];
  for (const line of passwordFile.split('\n')) {
    const colon = line.indexOf(':');
    const username = line.slice(0, colon);
    if (colon > 0 && names.has(username))
      accounts.push({ username, hash: line.slice(colon + 1).trim() });
  }
  return accounts;
}

/**
 * Mosquitto's `password_file` and `acl_file` for every registered node plus Fleetdeck's accounts:
 * `gateway` (this instance's, from its password) and `keep` (other instances', already hashed).
 */
export async function exportMosquittoAuth(
  db: Kysely<Database>,
  gateway: { username: string; password: string },
  keep: readonly MosquittoPasswordEntry[] = [],
): Promise<{ passwordFile: string; aclFile: string; nodes: number; gateways: string[] }> {
  const gateways: MosquittoPasswordEntry[] = [
    { username: gateway.username, hash: hashMosquittoPassword(gateway.password) },
    ...keep.filter((account) => account.username !== gateway.username),
  ];
  const names = new Set(gateways.map((account) => account.username));
  const entries = [...gateways];
  for await (const { nodeId, hash } of brokerCredentials(db)) {
    if (names.has(nodeId)) throw new Error(`node id ${nodeId} is also a Fleetdeck account name`);
    entries.push({ username: nodeId, hash });
  }
  return {
    passwordFile: renderMosquittoPasswordFile(entries),
    aclFile: renderMosquittoAclFile([...names]),
    nodes: entries.length - gateways.length,
    gateways: [...names],
  };
}
