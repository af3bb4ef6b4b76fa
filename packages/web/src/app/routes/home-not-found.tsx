import { Button } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { NOT_FOUND_TITLE, NotFoundView } from '../../components/not-found-view';
import { useSessionUser } from '../../features/auth/components/session-user';
import { homeTarget } from '../layout/nav-items';

/** "Page not found" inside the dashboard, for every /home screen this version does not have. */
export function HomeNotFound() {
  useDocumentTitle(`${NOT_FOUND_TITLE} · Fleetdeck`);
  const user = useSessionUser();
  return (
    <NotFoundView
      action={
        <Button
          component={Link}
          to={homeTarget(user.user_role)}
          leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
        >
          Back to Home
        </Button>
      }
    />
  );
}
