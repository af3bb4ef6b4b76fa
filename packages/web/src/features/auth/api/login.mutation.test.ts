import type { CurrentUser } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { postLoginOutcome } from './login.mutation';

function user(overrides: Partial<CurrentUser>): CurrentUser {
  return {
    user_id: 'u1',
    user_name: 'ops@example.com',
    email: 'ops@example.com',
    name: 'Ops',
    super_admin: false,
    admin: false,
    user_role: [],
    permissions: [],
    email_user: true,
    mfa: false,
    deployment_mode: 'standard',
    session_expires_at: 1_750_000_000,
    ...overrides,
  };
}

describe('postLoginOutcome', () => {
  it('admits everyone in a standard deployment', () => {
    expect(postLoginOutcome(user({ user_role: ['user'] }))).toBe('signed-in');
  });

  it('admits customer-deployment users who hold a dashboard role', () => {
    expect(
      postLoginOutcome(user({ deployment_mode: 'customer', user_role: ['service_engineer_role'] })),
    ).toBe('signed-in');
  });

  it('refuses customer-deployment users without any dashboard role', () => {
    expect(postLoginOutcome(user({ deployment_mode: 'customer', user_role: ['user'] }))).toBe(
      'unauthorised',
    );
    expect(postLoginOutcome(user({ deployment_mode: 'customer', user_role: [] }))).toBe(
      'unauthorised',
    );
  });
});
