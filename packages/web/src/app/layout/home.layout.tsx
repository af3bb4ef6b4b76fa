import { AppShell, Burger, Center, Group, Progress } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { memo } from 'react';
import { Link, Outlet, useNavigation } from 'react-router';
import { BrandMark } from '../../components/brand-mark';
import { Copyright } from '../../components/copyright';
import { RequireSession } from '../../features/auth/components/require-session';
import { useSessionUser } from '../../features/auth/components/session-user';
import { NodeStatusStream } from '../../features/nodes/components/node-status-stream';
import { DashboardUpdateModal } from '../../features/dashboard-update/components/dashboard-update-modal';
import { AccountMenu } from './account-menu';
import { homeTarget } from './nav-items';
import { SidebarNav } from './sidebar-nav';

const HEADER_HEIGHT = 60;
const FOOTER_HEIGHT = 40;
const NAVBAR_WIDTH = 280;

const PADDING = { base: 'md', sm: 'lg' } as const;

// Neither takes props from the shell: memoised, they stay as they are when the route re-renders.
const UpdateModal = memo(DashboardUpdateModal);
const StatusStream = memo(NodeStatusStream);

/*
 * The header and footer are memoised: a list's filters live in the query string, and each
 * change re-renders the route's layout; the shell around the page stays as it is (B8).
 */
const ShellHeader = memo(function ShellHeader({
  user,
  navOpened,
  onToggleNav,
  loading,
}: {
  user: ReturnType<typeof useSessionUser>;
  navOpened: boolean;
  onToggleNav: () => void;
  loading: boolean;
}) {
  return (
    <AppShell.Header>
      <Group h="100%" px="md" justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Burger
            opened={navOpened}
            onClick={onToggleNav}
            hiddenFrom="sm"
            size="sm"
            aria-label="Toggle navigation"
          />
          <Link
            to={homeTarget(user.user_role)}
            aria-label="Fleetdeck home"
            style={{ textDecoration: 'none' }}
          >
            <BrandMark />
          </Link>
        </Group>
        <AccountMenu user={user} />
      </Group>
      {loading && (
        <Progress
          value={100}
          animated
          size={2}
          radius={0}
          pos="absolute"
          bottom={0}
          left={0}
          right={0}
          aria-label="Loading page"
        />
      )}
    </AppShell.Header>
  );
});

const ShellFooter = memo(function ShellFooter() {
  return (
    <AppShell.Footer>
      <Center h="100%">
        <Copyright />
      </Center>
    </AppShell.Footer>
  );
});

function DashboardShell() {
  const user = useSessionUser();
  const navigation = useNavigation();
  const [navOpened, nav] = useDisclosure(false);

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      footer={{ height: FOOTER_HEIGHT }}
      navbar={{ width: NAVBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding={PADDING}
    >
      <StatusStream enabled={user.permissions.includes('nodes.read')} />
      <UpdateModal />
      <ShellHeader
        user={user}
        navOpened={navOpened}
        onToggleNav={nav.toggle}
        loading={navigation.state === 'loading'}
      />

      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <SidebarNav user={user} onNavigate={nav.close} />
      </AppShell.Navbar>

      <AppShell.Main bg="gray.0">
        <Outlet />
      </AppShell.Main>

      <ShellFooter />
    </AppShell>
  );
}

/**
 * Everything under /home: the session guard, then the dashboard shell around the page. Modals
 * belong to the signed-in screens, so their provider loads with them, not with the login page.
 */
export function HomeLayout() {
  return (
    <RequireSession>
      <ModalsProvider>
        <DashboardShell />
      </ModalsProvider>
    </RequireSession>
  );
}
