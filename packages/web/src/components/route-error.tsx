import { MESSAGES } from '@fleetdeck/contract';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { PublicPage } from './public-page';

/**
 * Last-resort screen for an error while rendering or loading a route (e.g. a stale chunk after a
 * new release). Reloading fetches the current build.
 */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <PublicPage>
      <Stack gap="md" align="center" ta="center">
        <Title order={1} size="h3">
          {MESSAGES.somethingWentWrong}
        </Title>
        <Text c="dimmed">Reload the page to try again.</Text>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </PublicPage>
  );
}
