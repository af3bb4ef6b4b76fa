import { MESSAGES } from '@fleetdeck/contract';
import { Button, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { PublicPage } from '../../../components/public-page';
import { errorMessage } from '../../../lib/api-error';
import { LOGIN_PATH } from '../../../lib/paths';
import { useCurrentUser } from '../api/current-user.query';
import { SessionUserContext } from './session-user';

/**
 * Lets only signed-in users through (GET /v1/user). Without a session it sends the visitor to
 * /login, remembering where they were going; while it asks it shows a loader, never the login.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const currentUser = useCurrentUser();

  if (currentUser.data) {
    return <SessionUserContext value={currentUser.data}>{children}</SessionUserContext>;
  }
  if (currentUser.data === null) {
    return (
      <Navigate
        to={LOGIN_PATH}
        replace
        state={{ from: `${location.pathname}${location.search}${location.hash}` }}
      />
    );
  }
  if (currentUser.isError) {
    return (
      <PublicPage>
        <Stack gap="md" align="center" ta="center" role="alert">
          <Title order={1} size="h3">
            {MESSAGES.somethingWentWrong}
          </Title>
          <Text c="dimmed">{errorMessage(currentUser.error)}</Text>
          <Button onClick={() => void currentUser.refetch()} loading={currentUser.isFetching}>
            Try again
          </Button>
        </Stack>
      </PublicPage>
    );
  }
  return <PageLoader />;
}
