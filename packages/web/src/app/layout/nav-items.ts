import {
  canSeeDashboard,
  type CurrentUser,
  LABELS,
  type Permission,
  type Role,
} from '@fleetdeck/contract';

/**
 * The sidebar, as the spec lists it (access §2 "Sidebar and navigation"): labels, targets and
 * order, and who sees each entry. Pure data and functions, so the rules are unit-tested.
 */

export type NavItemId =
  | 'home'
  | 'devices'
  | 'device-categories'
  | 'graphs'
  | 'firmware-images'
  | 'ota-history'
  | 'fault-list'
  | 'active-fault-list'
  | 'geo-region'
  | 'product-serial'
  | 'deployment-settings'
  | 'device-reports';

export type NavSection = 'main' | 'bottom';

/** Who may see an entry: every permission in `allOf` and, if given, one of `anyOf`. */
interface NavRule {
  allOf?: readonly Permission[];
  anyOf?: readonly Permission[];
  /**
   * Only in a customer deployment: the page's route needs the customer marker too (access §6),
   * so elsewhere the entry would only bounce to /home/change-password.
   */
  customerDeployment?: true;
}

interface NavDefinition {
  id: NavItemId;
  label: string;
  /** Where the entry leads; null for Home, whose target depends on the user (homeTarget). */
  to: string | null;
  section: NavSection;
  /** `exact` highlights only on the target itself; `prefix` also on pages below it. */
  match: 'exact' | 'prefix';
  rule: NavRule;
}

/**
 * Pages that belong to an entry without living below its path (details and archived lists),
 * so the entry stays highlighted there too.
 */
const RELATED_PATHS: Partial<Record<NavItemId, readonly string[]>> = {
  'device-categories': ['/home/group-details'],
  'firmware-images': ['/home/image-details', '/home/archived-firmware-images'],
  'ota-history': ['/home/job-details', '/home/ota-archived-jobs'],
  'fault-list': [
    '/home/fault-image-details',
    '/home/fault-archived-fault-images',
    '/home/faultjobs',
    '/home/fault-job-details',
    '/home/fault-ota-archived-jobs',
  ],
  'active-fault-list': ['/home/Faulthistory'],
};

/** A sidebar entry as shown to one user. */
export interface NavItem {
  id: NavItemId;
  label: string;
  to: string;
  section: NavSection;
  match: 'exact' | 'prefix';
  /**
   * The path that highlights the entry. Home highlights only on the dashboard, even when it
   * leads to the devices list, so Devices is then the one entry highlighted there.
   */
  activePath: string;
  /** Further paths (and the pages below them) that highlight the entry. */
  relatedPaths: readonly string[];
}

export const DASHBOARD_HOME_PATH = '/home/';
export const NON_DASHBOARD_HOME_PATH = '/home/nodes/';

const DEPLOYMENT_ADMIN: NavRule = { allOf: ['admin', 'settings.deployment'] };

export const NAV_DEFINITIONS: readonly NavDefinition[] = [
  { id: 'home', label: LABELS.navHome, to: null, section: 'main', match: 'exact', rule: {} },
  {
    id: 'devices',
    label: LABELS.navDevices,
    to: '/home/nodes',
    section: 'main',
    match: 'prefix',
    rule: { anyOf: ['nodes.read', 'user.nodes'] },
  },
  {
    id: 'device-categories',
    label: LABELS.navDeviceCategories,
    to: '/home/node-groups',
    section: 'main',
    match: 'prefix',
    rule: { allOf: ['groups.read'] },
  },
  {
    id: 'graphs',
    label: LABELS.navGraphs,
    to: '/home/metricss',
    section: 'main',
    match: 'prefix',
    rule: { allOf: ['nodes.read'] },
  },
  {
    id: 'firmware-images',
    label: LABELS.navFirmwareImages,
    to: '/home/firmware-images',
    section: 'main',
    match: 'prefix',
    rule: { allOf: ['firmware.read'] },
  },
  {
    id: 'ota-history',
    label: LABELS.navOtaHistory,
    to: '/home/ota-jobs',
    section: 'main',
    match: 'prefix',
    rule: { allOf: ['ota.read'] },
  },
  {
    id: 'fault-list',
    label: LABELS.navFaultList,
    to: '/home/Fault-images',
    section: 'main',
    match: 'prefix',
    rule: { allOf: ['faults.read'] },
  },
  {
    id: 'active-fault-list',
    label: LABELS.navActiveFaultList,
    to: '/home/FaultList',
    section: 'main',
    match: 'prefix',
    rule: { allOf: ['faults.read'] },
  },
  {
    id: 'geo-region',
    label: LABELS.navGeoRegion,
    to: '/home/georegion',
    section: 'main',
    match: 'prefix',
    rule: { allOf: ['search.read'] },
  },
  {
    id: 'product-serial',
    label: LABELS.navProductSerial,
    to: '/home/productserial',
    section: 'main',
    match: 'prefix',
    rule: { allOf: ['search.read'] },
  },
  {
    id: 'deployment-settings',
    label: LABELS.navDeploymentSettings,
    to: '/home/deployment-settings/',
    section: 'bottom',
    match: 'prefix',
    rule: { ...DEPLOYMENT_ADMIN, customerDeployment: true },
  },
  {
    id: 'device-reports',
    label: LABELS.navDeviceReports,
    to: '/home/device-reports/',
    section: 'bottom',
    match: 'prefix',
    rule: DEPLOYMENT_ADMIN,
  },
];

export type NavUser = Pick<CurrentUser, 'user_role' | 'permissions' | 'deployment_mode'>;

/** Where Home leads (access §6): the dashboard for its roles, otherwise the devices list. */
export function homeTarget(roles: readonly Role[]): string {
  return canSeeDashboard(roles) ? DASHBOARD_HOME_PATH : NON_DASHBOARD_HOME_PATH;
}

function allows(rule: NavRule, granted: ReadonlySet<string>, user: NavUser): boolean {
  const all = rule.allOf ?? [];
  const any = rule.anyOf ?? [];
  if (rule.customerDeployment && user.deployment_mode !== 'customer') return false;
  return (
    all.every((permission) => granted.has(permission)) &&
    (any.length === 0 || any.some((permission) => granted.has(permission)))
  );
}

/** The entries one user sees, in the spec's order, with Home's target resolved. */
export function visibleNavItems(user: NavUser): NavItem[] {
  const granted = new Set(user.permissions);
  return NAV_DEFINITIONS.filter((definition) => allows(definition.rule, granted, user)).map(
    ({ id, label, to, section, match }) => ({
      id,
      label,
      to: to ?? homeTarget(user.user_role),
      section,
      match,
      activePath: to ?? DASHBOARD_HOME_PATH,
      relatedPaths: RELATED_PATHS[id] ?? [],
    }),
  );
}

/** Lower-cased without trailing slashes: routes match case-insensitively, slash or not. */
export function normalisePath(path: string): string {
  const trimmed = path.toLowerCase().replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Whether an entry is the one to highlight for the current location. */
export function isNavItemActive(
  item: Pick<NavItem, 'activePath' | 'match'> & Partial<Pick<NavItem, 'relatedPaths'>>,
  pathname: string,
): boolean {
  const target = normalisePath(item.activePath);
  const current = normalisePath(pathname);
  const within = (path: string) => current === path || current.startsWith(`${path}/`);
  if (item.relatedPaths?.some((path) => within(normalisePath(path)))) return true;
  if (item.match === 'exact') return current === target;
  return within(target);
}
