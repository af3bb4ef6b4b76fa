import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyMosquittoPassword } from '../src/gateway/mosquitto-config.js';
import { exportMosquittoAuth, readGatewayAccounts } from '../src/gateway/mosquitto-export.js';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

describe.each(DIALECTS)('Mosquitto auth files from the registry on %s', (dialect) => {
  let server: TestServer;
  let credentials: Array<{ node_id: string; mqtt_password: string }>;

  beforeAll(async () => {
    server = await createTestServer(dialect);
    const token = (await apiLogin(server.app)).accesstoken;
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/node_ids',
      headers: { authorization: token },
      payload: {
        nodes: ['MQ1', 'MQ2', 'MQ3'].map((node_id) => ({
          node_id,
          type: 'Refrigerator',
          model: 'FD-R',
          tags: ['location:Pune'],
        })),
      },
    });
    credentials = response.json<{ nodes: Array<{ node_id: string; mqtt_password: string }> }>()
      .nodes;
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes every registered node with a hash of its own password, and the Fleetdeck account', async () => {
    const files = await exportMosquittoAuth(server.database.db, {
      username: 'fleetdeck',
      password: 'Gateway-Secret-2031',
    });
    expect(files.nodes).toBe(3);
    const lines = new Map(
      files.passwordFile
        .trim()
        .split('\n')
        .map(
          (line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)] as const,
        ),
    );
    expect([...lines.keys()].sort()).toEqual(['MQ1', 'MQ2', 'MQ3', 'fleetdeck']);
    for (const { node_id, mqtt_password } of credentials) {
      const hash = lines.get(node_id) ?? '';
      expect(hash).toMatch(/^\$7\$/);
      expect(verifyMosquittoPassword(hash, mqtt_password)).toBe(true);
      expect(verifyMosquittoPassword(hash, 'wrong')).toBe(false);
    }
    expect(verifyMosquittoPassword(lines.get('fleetdeck') ?? '', 'Gateway-Secret-2031')).toBe(true);
    expect(files.aclFile).toContain('pattern readwrite node/%u/#');
    expect(files.passwordFile).not.toContain(credentials[0]?.mqtt_password ?? 'x');
  });

  it("keeps the other instances' Fleetdeck accounts of earlier files, and replaces this one's", async () => {
    // Instance fd1 wrote the files first; fd2 re-runs the export with its own account.
    const first = await exportMosquittoAuth(server.database.db, {
      username: 'fd1',
      password: 'Gateway-One-2031',
    });
    const kept = readGatewayAccounts(first.passwordFile, first.aclFile);
    expect(kept.map((account) => account.username)).toEqual(['fd1']);
    const second = await exportMosquittoAuth(
      server.database.db,
      { username: 'fd2', password: 'Gateway-Two-2031' },
      kept,
    );
    expect(second.gateways).toEqual(['fd2', 'fd1']);
    expect(second.nodes).toBe(3);
    const again = readGatewayAccounts(second.passwordFile, second.aclFile);
    const hashes = new Map(again.map((account) => [account.username, account.hash]));
    expect(verifyMosquittoPassword(hashes.get('fd1') ?? '', 'Gateway-One-2031')).toBe(true);
    expect(verifyMosquittoPassword(hashes.get('fd2') ?? '', 'Gateway-Two-2031')).toBe(true);
    // Both accounts get the Fleetdeck ACL; node entries are never taken for accounts.
    expect(second.aclFile).toContain('user fd1\ntopic readwrite #');
    expect(second.aclFile).toContain('user fd2\ntopic readwrite #');
    expect(again.map((account) => account.username).sort()).toEqual(['fd1', 'fd2']);
    // fd1 re-running with a new password replaces its own entry instead of adding one.
    const rotated = await exportMosquittoAuth(
      server.database.db,
      { username: 'fd1', password: 'Gateway-One-2032' },
      again,
    );
    const rotatedHashes = new Map(
      readGatewayAccounts(rotated.passwordFile, rotated.aclFile).map((a) => [a.username, a.hash]),
    );
    expect(rotated.gateways.sort()).toEqual(['fd1', 'fd2']);
    expect(verifyMosquittoPassword(rotatedHashes.get('fd1') ?? '', 'Gateway-One-2032')).toBe(true);
    // A node id that an account name already uses is refused rather than merged.
    await expect(
      exportMosquittoAuth(server.database.db, { username: 'MQ1', password: 'Gateway-Three-2031' }),
    ).rejects.toThrow(/MQ1 is also a Fleetdeck account name/);
  });
});
