import { LABELS } from '@fleetdeck/contract';
import { Button } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LOGIN_PATH } from '../lib/paths';
import { NOT_FOUND_TITLE, NotFoundView } from './not-found-view';
import { PublicPage } from './public-page';

/** "Page not found" for signed-out visitors, with the way back to the login. */
export function PublicNotFound() {
  useDocumentTitle(`${NOT_FOUND_TITLE} · Fleetdeck`);
  return (
    <PublicPage>
      <NotFoundView
        action={
          <Button component={Link} to={LOGIN_PATH} leftSection={<IconArrowLeft size={16} />}>
            {LABELS.backToLogin}
          </Button>
        }
      />
    </PublicPage>
  );
}
