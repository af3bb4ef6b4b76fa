import { ROLE_PERMISSIONS, permissionsOf, type Permission, type Role } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_HOME_PATH,
  NON_DASHBOARD_HOME_PATH,
  homeTarget,
  isNavItemActive,
  normalisePath,
  visibleNavItems,
  type NavUser,
} from './nav-items';

function userWith(
  roles: Role[],
  permissions: readonly string[] = permissionsOf(roles),
  deploymentMode: NavUser['deployment_mode'] = 'customer',
): NavUser {
  return { user_role: roles, permissions: [...permissions], deployment_mode: deploymentMode };
}

const labels = (user: NavUser) => visibleNavItems(user).map((item) => item.label);

describe('visibleNavItems', () => {
  it('shows a super admin every entry, with the spec labels and targets in the spec order', () => {
    const items = visibleNavItems(userWith(['super_admin']));
    expect(items.map(({ label, to, section }) => ({ label, to, section }))).toEqual([
      { label: 'Home', to: '/home/', section: 'main' },
      { label: 'Devices', to: '/home/nodes', section: 'main' },
      { label: 'Device Categories', to: '/home/node-groups', section: 'main' },
      { label: 'Graphs', to: '/home/metricss', section: 'main' },
      { label: 'Wifi Firmware Images', to: '/home/firmware-images', section: 'main' },
      { label: 'OTA History', to: '/home/ota-jobs', section: 'main' },
      { label: 'Fault List', to: '/home/Fault-images', section: 'main' },
      { label: 'Active Fault List', to: '/home/FaultList', section: 'main' },
      { label: 'Search By Geo Region', to: '/home/georegion', section: 'main' },
      { label: 'Search By Product Serial No.', to: '/home/productserial', section: 'main' },
      { label: 'Deployment Settings', to: '/home/deployment-settings/', section: 'bottom' },
      { label: 'DeviceReports', to: '/home/device-reports/', section: 'bottom' },
    ]);
  });

  it('hides the bottom entries from an admin, who lacks the admin and deployment permissions', () => {
    expect(labels(userWith(['admin']))).not.toContain('Deployment Settings');
    expect(labels(userWith(['admin']))).not.toContain('DeviceReports');
    expect(labels(userWith(['admin']))).toHaveLength(10);
  });

  it('needs both the admin and the deployment-settings permission for the bottom entries', () => {
    const fleet = permissionsOf(['service_engineer_role']);
    expect(labels(userWith(['service_engineer_role'], [...fleet, 'admin']))).not.toContain(
      'Deployment Settings',
    );
    expect(
      labels(userWith(['service_engineer_role'], [...fleet, 'settings.deployment'])),
    ).not.toContain('DeviceReports');
    expect(
      labels(userWith(['service_engineer_role'], [...fleet, 'admin', 'settings.deployment'])),
    ).toEqual(expect.arrayContaining(['Deployment Settings', 'DeviceReports']));
  });

  it('offers Deployment Settings only in a customer deployment, where its route opens', () => {
    const superAdmin = permissionsOf(['super_admin']);
    const standard = labels(userWith(['super_admin'], superAdmin, 'standard'));
    expect(standard).not.toContain('Deployment Settings');
    expect(standard).toContain('DeviceReports');
    expect(labels(userWith(['super_admin'], superAdmin, 'customer'))).toContain(
      'Deployment Settings',
    );
  });

  it('shows an end user only Home and Devices (through the user.nodes permission)', () => {
    expect(labels(userWith(['user']))).toEqual(['Home', 'Devices']);
  });

  it('gates every entry on its own permission', () => {
    const cases: [Permission, string[]][] = [
      ['nodes.read', ['Devices', 'Graphs']],
      ['user.nodes', ['Devices']],
      ['groups.read', ['Device Categories']],
      ['firmware.read', ['Wifi Firmware Images']],
      ['ota.read', ['OTA History']],
      ['faults.read', ['Fault List', 'Active Fault List']],
      ['search.read', ['Search By Geo Region', 'Search By Product Serial No.']],
    ];
    for (const [permission, expected] of cases) {
      expect(labels(userWith([], [permission]))).toEqual(['Home', ...expected]);
    }
  });

  it('shows only Home to a user with no permissions', () => {
    expect(labels(userWith([], []))).toEqual(['Home']);
  });

  it('gives the four service and manufacturing roles the same fleet entries', () => {
    const roles: Role[] = [
      'service_manager_role',
      'service_engineer_role',
      'manufacturing_manager_role',
      'manufacturing_engineer_role',
    ];
    for (const role of roles) {
      expect(ROLE_PERMISSIONS[role]).toContain('nodes.read');
      expect(labels(userWith([role]))).toHaveLength(10);
    }
  });
});

describe('homeTarget', () => {
  it('sends admins and the four service and manufacturing roles to the dashboard', () => {
    for (const role of [
      'super_admin',
      'admin',
      'service_manager_role',
      'service_engineer_role',
      'manufacturing_manager_role',
      'manufacturing_engineer_role',
    ] as const) {
      expect(homeTarget([role])).toBe(DASHBOARD_HOME_PATH);
    }
  });

  it('sends everyone else to the devices list', () => {
    expect(homeTarget(['user'])).toBe(NON_DASHBOARD_HOME_PATH);
    expect(homeTarget([])).toBe('/home/nodes/');
  });

  it('is what the Home entry links to', () => {
    expect(visibleNavItems(userWith(['user']))[0]).toMatchObject({
      label: 'Home',
      to: '/home/nodes/',
    });
    expect(visibleNavItems(userWith(['admin']))[0]).toMatchObject({ label: 'Home', to: '/home/' });
  });
});

describe('isNavItemActive', () => {
  const item = (id: string, user: NavUser = userWith(['super_admin'])) => {
    const found = visibleNavItems(user).find((entry) => entry.id === id);
    if (!found) throw new Error(`no nav item ${id}`);
    return found;
  };

  it('highlights Home only on the dashboard itself', () => {
    expect(isNavItemActive(item('home'), '/home')).toBe(true);
    expect(isNavItemActive(item('home'), '/home/')).toBe(true);
    expect(isNavItemActive(item('home'), '/home/nodes')).toBe(false);
  });

  it('keeps an entry highlighted on its details and archived pages', () => {
    expect(isNavItemActive(item('firmware-images'), '/home/image-details/abc')).toBe(true);
    expect(isNavItemActive(item('firmware-images'), '/home/archived-firmware-images')).toBe(true);
    expect(isNavItemActive(item('ota-history'), '/home/job-details/J1/')).toBe(true);
    expect(isNavItemActive(item('ota-history'), '/home/ota-archived-jobs')).toBe(true);
    expect(isNavItemActive(item('fault-list'), '/home/fault-job-details/J1')).toBe(true);
    expect(isNavItemActive(item('active-fault-list'), '/home/faulthistory')).toBe(true);
    expect(isNavItemActive(item('device-categories'), '/home/group-details/AB12-CD34')).toBe(true);
    expect(isNavItemActive(item('firmware-images'), '/home/job-details/J1')).toBe(false);
    expect(isNavItemActive(item('ota-history'), '/home/image-details-x')).toBe(false);
  });

  it('does not highlight Home on the devices list even when Home leads there', () => {
    const endUser = userWith(['user']);
    expect(isNavItemActive(item('home', endUser), '/home/nodes/')).toBe(false);
    expect(isNavItemActive(item('devices', endUser), '/home/nodes/')).toBe(true);
  });

  it('matches case-insensitively and with or without a trailing slash', () => {
    expect(isNavItemActive(item('geo-region'), '/home/Georegion/')).toBe(true);
    expect(isNavItemActive(item('fault-list'), '/home/fault-images')).toBe(true);
    expect(isNavItemActive(item('active-fault-list'), '/home/faultlist/')).toBe(true);
    expect(isNavItemActive(item('deployment-settings'), '/home/deployment-settings')).toBe(true);
  });

  it('highlights an entry on the pages below it but not on look-alike paths', () => {
    expect(isNavItemActive(item('device-categories'), '/home/node-groups/abc')).toBe(true);
    expect(isNavItemActive(item('devices'), '/home/nodes-archive')).toBe(false);
    expect(isNavItemActive(item('fault-list'), '/home/fault-images-old/1')).toBe(false);
  });
});

describe('normalisePath', () => {
  it('lower-cases and drops trailing slashes', () => {
    expect(normalisePath('/Home/FaultList//')).toBe('/home/faultlist');
    expect(normalisePath('/')).toBe('/');
  });
});
