import { randomUUID } from 'node:crypto';
import { ROLE_PERMISSIONS } from '@fleetdeck/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../src/repositories/user.repository.js';
import { hashPassword } from '../src/services/auth/password.js';
import {
  DIALECTS,
  apiLogin,
  browserLogin,
  createTestServer,
  type TestServer,
} from './helpers/test-server.js';

const PASSWORD = 'Staff-Member-2031';

async function addUser(server: TestServer, userName: string, roles: string[]): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await insertUser(
    server.database.db,
    {
      user_id: randomUUID(),
      user_name: userName,
      password_hash: await hashPassword(PASSWORD),
      name: '',
      super_admin: 0,
      verified: 1,
      mfa: 0,
      phone_number: null,
      created_at: now,
      updated_at: now,
      password_changed_at: now,
    },
    roles,
  );
}

describe.each(DIALECTS)('roles and permissions from the database on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect);
    await addUser(server, 'engineer@fleetdeck.test', ['service_engineer_role']);
    await addUser(server, 'owner@fleetdeck.test', ['user']);
    await addUser(server, 'manager@fleetdeck.test', [
      'manufacturing_manager_role',
      'service_manager_role',
    ]);
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['engineer@fleetdeck.test', ['service_engineer_role']],
    ['owner@fleetdeck.test', ['user']],
    ['manager@fleetdeck.test', ['manufacturing_manager_role', 'service_manager_role']],
  ] as const)(
    'gives %s exactly the permissions of its roles and no admin flag',
    async (userName, roles) => {
      const { accesstoken } = await apiLogin(server.app, userName, PASSWORD);
      const me = await server.app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: accesstoken },
      });
      expect(me.statusCode).toBe(200);
      const body = me.json<{
        admin: boolean;
        super_admin: boolean;
        user_role: string[];
        permissions: string[];
      }>();
      expect(body).toMatchObject({ admin: false, super_admin: false, user_role: [...roles] });
      const expected = new Set(roles.flatMap((role) => ROLE_PERMISSIONS[role]));
      expect(new Set(body.permissions)).toEqual(expected);
    },
  );

  it('marks non-admins with admin=false in the readable cookie', async () => {
    const { cookies } = await browserLogin(server.app, 'engineer@fleetdeck.test', PASSWORD);
    expect(cookies.get('admin')?.value).toBe('false');
    expect(cookies.get('user_role')?.value).toBe('service_engineer_role');
    expect(cookies.get('cst')?.value ?? '').toBe('');
  });

  it('lets every role change its own password', async () => {
    const { accesstoken } = await apiLogin(server.app, 'owner@fleetdeck.test', PASSWORD);
    const response = await server.app.inject({
      method: 'PUT',
      url: '/v1/password',
      headers: { authorization: accesstoken },
      payload: { password: PASSWORD, newpassword: 'Kettle-Lamp-2032' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe.each(DIALECTS)('customer deployment mode on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer(dialect, { env: { DEPLOYMENT_MODE: 'customer' } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('tells the login page to hide sign-up and marks the session with cst', async () => {
    const info = await server.app.inject({ method: 'GET', url: '/v1/deployment_info' });
    expect(info.json()).toMatchObject({
      deployment_mode: 'customer',
      sign_up_enabled: false,
      social_providers: [],
    });
    const { cookies, cookieHeader } = await browserLogin(server.app);
    expect(cookies.get('cst')?.value).toBe('true');
    const me = await server.app.inject({
      method: 'GET',
      url: '/v1/user2',
      headers: { cookie: cookieHeader },
    });
    expect(me.json()).toMatchObject({ deployment_mode: 'customer' });
  });

  it('serves the …2 variants of login and password change', async () => {
    const login = await server.app.inject({
      method: 'POST',
      url: '/v1/login2',
      payload: { user_name: 'root@fleetdeck.test', password: 'Ops-Console-2031' },
    });
    expect(login.statusCode).toBe(200);
    const { accesstoken } = login.json<{ accesstoken: string }>();
    const change = await server.app.inject({
      method: 'PUT',
      url: '/v1/password2',
      headers: { authorization: accesstoken },
      payload: { password: 'Ops-Console-2031', newpassword: 'Customer-Mode-2032' },
    });
    expect(change.statusCode).toBe(200);
  });
});
