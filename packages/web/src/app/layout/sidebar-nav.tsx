import { AppShell, Divider, NavLink, ScrollArea, Stack } from '@mantine/core';
import {
  IconAlertOctagon,
  IconAlertTriangle,
  IconBarcode,
  IconCategory,
  IconChartLine,
  IconCpu,
  IconDeviceDesktop,
  IconFileReport,
  IconHistory,
  IconHome,
  IconMapPin,
  IconSettings,
  type Icon,
} from '@tabler/icons-react';
import { memo } from 'react';
import { Link, useLocation } from 'react-router';
import {
  isNavItemActive,
  visibleNavItems,
  type NavItem,
  type NavItemId,
  type NavUser,
} from './nav-items';

const ICONS: Record<NavItemId, Icon> = {
  home: IconHome,
  devices: IconDeviceDesktop,
  'device-categories': IconCategory,
  graphs: IconChartLine,
  'firmware-images': IconCpu,
  'ota-history': IconHistory,
  'fault-list': IconAlertTriangle,
  'active-fault-list': IconAlertOctagon,
  'geo-region': IconMapPin,
  'product-serial': IconBarcode,
  'deployment-settings': IconSettings,
  'device-reports': IconFileReport,
};

function NavEntry({
  item,
  pathname,
  onNavigate,
}: {
  item: NavItem;
  pathname: string;
  onNavigate: () => void;
}) {
  const ItemIcon = ICONS[item.id];
  const active = isNavItemActive(item, pathname);
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<ItemIcon size={18} stroke={1.7} aria-hidden="true" />}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
      data-nav-id={item.id}
    />
  );
}

/** The sidebar: the spec's entries in order, the admin entries at the bottom. */
export function SidebarNav({ user, onNavigate }: { user: NavUser; onNavigate: () => void }) {
  const { pathname } = useLocation();
  return <SidebarEntries user={user} pathname={pathname} onNavigate={onNavigate} />;
}

/**
 * The entries, drawn again only when the path changes: a list's filters live in the query string,
 * and a filter change should not re-render the whole sidebar (B8).
 */
const SidebarEntries = memo(function SidebarEntries({
  user,
  pathname,
  onNavigate,
}: {
  user: NavUser;
  pathname: string;
  onNavigate: () => void;
}) {
  const items = visibleNavItems(user);
  const main = items.filter((item) => item.section === 'main');
  const bottom = items.filter((item) => item.section === 'bottom');

  return (
    <>
      <AppShell.Section grow component={ScrollArea} type="scroll">
        <Stack gap={2}>
          {main.map((item) => (
            <NavEntry key={item.id} item={item} pathname={pathname} onNavigate={onNavigate} />
          ))}
        </Stack>
      </AppShell.Section>
      {bottom.length > 0 && (
        <AppShell.Section>
          <Divider my="sm" />
          <Stack gap={2}>
            {bottom.map((item) => (
              <NavEntry key={item.id} item={item} pathname={pathname} onNavigate={onNavigate} />
            ))}
          </Stack>
        </AppShell.Section>
      )}
    </>
  );
});
