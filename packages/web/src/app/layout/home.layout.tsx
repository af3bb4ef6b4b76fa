import { useDisclosure } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { memo } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { RequireSession } from '../../features/auth/components/require-session';
import { useSessionUser } from '../../features/auth/components/session-user';
import { NodeStatusStream } from '../../features/nodes/components/node-status-stream';
import { DashboardUpdateModal } from '../../features/dashboard-update/components/dashboard-update-modal';
import { DashboardFrame } from './dashboard-frame';
import { useHeadingFocusOnNavigation } from './use-heading-focus-on-navigation';

// Neither takes props from the shell: memoised, they stay as they are when the route re-renders.
const UpdateModal = memo(DashboardUpdateModal);
const StatusStream = memo(NodeStatusStream);

function DashboardShell() {
  const user = useSessionUser();
  const navigation = useNavigation();
  const [navOpened, nav] = useDisclosure(false);
  useHeadingFocusOnNavigation();

  return (
    <>
      <StatusStream enabled={user.permissions.includes('nodes.read')} />
      <UpdateModal />
      <DashboardFrame
        user={user}
        navOpened={navOpened}
        onToggleNav={nav.toggle}
        onCloseNav={nav.close}
        loading={navigation.state === 'loading'}
      >
        <Outlet />
      </DashboardFrame>
    </>
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
