import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyMosquittoPassword } from '../src/gateway/mosquitto-config.js';
import { exportMosquittoAuth } from '../src/gateway/mosquitto-export.js';
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
});
