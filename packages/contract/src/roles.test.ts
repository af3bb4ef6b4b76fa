import { describe, expect, it } from 'vitest';
import { formatMessage, MESSAGES } from './messages.js';
import {
  ASSIGNABLE_ROLES,
  canSeeDashboard,
  permissionsOf,
  ROLE_PERMISSIONS,
  ROLES,
} from './roles.js';

describe('permission table', () => {
  it('gives super admins every administrative permission', () => {
    const granted = permissionsOf(['super_admin']);
    for (const permission of [
      'admin',
      'settings.deployment',
      'users.manage',
      'templates.manage',
      'ota.write',
    ]) {
      expect(granted).toContain(permission);
    }
  });

  it('keeps user registration and deployment settings to super admins', () => {
    for (const role of ROLES.filter((r) => r !== 'super_admin')) {
      expect(ROLE_PERMISSIONS[role]).not.toContain('users.manage');
      expect(ROLE_PERMISSIONS[role]).not.toContain('settings.deployment');
      expect(ROLE_PERMISSIONS[role]).not.toContain('admin');
    }
  });

  it('gives engineers read access only', () => {
    for (const role of ['service_engineer_role', 'manufacturing_engineer_role'] as const) {
      expect(
        ROLE_PERMISSIONS[role].filter((p) => p.endsWith('.write') || p === 'users.manage'),
      ).toEqual([]);
    }
  });

  it('opens the dashboard for admins and the four staff roles only', () => {
    for (const { role } of ASSIGNABLE_ROLES) expect(canSeeDashboard([role])).toBe(true);
    expect(canSeeDashboard(['admin'])).toBe(true);
    expect(canSeeDashboard(['user'])).toBe(false);
    expect(canSeeDashboard([])).toBe(false);
  });

  it('labels the assignable roles as the spec does', () => {
    expect(ASSIGNABLE_ROLES.map((r) => r.label)).toEqual([
      'Mfg Eng',
      'Mfg Manger',
      'Service Engg',
      'Service Manager',
    ]);
  });
});

describe('formatMessage', () => {
  it('fills named placeholders and leaves unknown ones', () => {
    expect(formatMessage(MESSAGES.addedNodesToGroup, { group: 'Kitchen' })).toBe(
      'Successfully added nodes to Kitchen',
    );
    expect(formatMessage('{a} {b}', { a: 1 })).toBe('1 {b}');
  });
});
