/**
 * Roles and the permission table. The server enforces these for every route; the web app reads
 * the same table only to hide what a user may not use. The database holds a copy (roles,
 * role_permissions) that the server keeps in step with this file at start-up.
 */

/** The four service/manufacturing roles that can be given to new users, with their spec labels. */
export const ASSIGNABLE_ROLES = [
  { role: 'manufacturing_engineer_role', label: 'Mfg Eng' },
  { role: 'manufacturing_manager_role', label: 'Mfg Manger' },
  { role: 'service_engineer_role', label: 'Service Engg' },
  { role: 'service_manager_role', label: 'Service Manager' },
] as const;

export const ROLES = [
  'super_admin',
  'admin',
  'service_manager_role',
  'service_engineer_role',
  'manufacturing_manager_role',
  'manufacturing_engineer_role',
  'user',
] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  super_admin: 'Super Admin',
  admin: 'Admin',
  service_manager_role: 'Service Manager',
  service_engineer_role: 'Service Engg',
  manufacturing_manager_role: 'Mfg Manger',
  manufacturing_engineer_role: 'Mfg Eng',
  user: 'User',
};

/** Roles whose holders see the statistics dashboard at /home (access §6). */
export const DASHBOARD_ROLES: readonly Role[] = [
  'super_admin',
  'admin',
  'service_manager_role',
  'service_engineer_role',
  'manufacturing_manager_role',
  'manufacturing_engineer_role',
];

export const PERMISSIONS = [
  /** The "admin permission" of the spec: super admins, who get the admin cookie. */
  'admin',
  'dashboard.view',
  'nodes.read',
  'nodes.write',
  'groups.read',
  'groups.write',
  'firmware.read',
  'firmware.write',
  'ota.read',
  'ota.write',
  'diagnostics.read',
  'stats.read',
  'faults.read',
  'faults.write',
  'search.read',
  'users.manage',
  'templates.manage',
  'settings.deployment',
  'user.nodes',
  'user.self',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const FLEET_READ: readonly Permission[] = [
  'dashboard.view',
  'nodes.read',
  'groups.read',
  'firmware.read',
  'ota.read',
  'diagnostics.read',
  'stats.read',
  'faults.read',
  'search.read',
  'user.self',
];

/**
 * Which permissions each role holds. Super admins hold every permission; admins run the fleet but
 * neither register users nor change deployment settings; managers may change what their area owns;
 * engineers read; end users reach only their own nodes (see docs/adr/0004-roles-and-permissions.md).
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  super_admin: PERMISSIONS.filter((permission) => permission !== 'user.nodes'),
  admin: [
    ...FLEET_READ,
    'nodes.write',
    'groups.write',
    'firmware.write',
    'ota.write',
    'faults.write',
  ],
  service_manager_role: [...FLEET_READ, 'groups.write', 'ota.write', 'faults.write'],
  service_engineer_role: FLEET_READ,
  manufacturing_manager_role: [...FLEET_READ, 'groups.write', 'firmware.write', 'ota.write'],
  manufacturing_engineer_role: FLEET_READ,
  user: ['user.nodes', 'user.self'],
};

/** The union of the permissions of the given roles. */
export function permissionsOf(roles: readonly Role[]): Permission[] {
  const granted = new Set<Permission>();
  for (const role of roles)
    for (const permission of ROLE_PERMISSIONS[role]) granted.add(permission);
  return PERMISSIONS.filter((permission) => granted.has(permission));
}

/** Whether the given roles open the statistics dashboard; others land on /home/nodes. */
export function canSeeDashboard(roles: readonly Role[]): boolean {
  return roles.some((role) => DASHBOARD_ROLES.includes(role));
}

/** Narrows an arbitrary string to a known role. */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
