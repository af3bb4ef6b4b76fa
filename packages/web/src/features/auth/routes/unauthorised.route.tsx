import { LABELS, MESSAGES } from '@fleetdeck/contract';
import { Button, Stack, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PublicPage } from '../../../components/public-page';
import { LOGIN_PATH } from '../../../lib/paths';

/** /unauthorised: a signed-in user this deployment does not admit (access §2, §4). */
export function UnauthorisedRoute() {
  useDocumentTitle('Unauthorised · Fleetdeck');
  return (
    <PublicPage>
      <Stack gap="lg" align="center" ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="red">
          <IconLock size={28} aria-hidden="true" />
        </ThemeIcon>
        <Title order={1} size="h3">
          {MESSAGES.unauthorisedPage}
        </Title>
        <Button component={Link} to={LOGIN_PATH} replace>
          {LABELS.backToLogin}
        </Button>
      </Stack>
    </PublicPage>
  );
}
