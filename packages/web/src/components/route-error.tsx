import { MESSAGES } from '@fleetdeck/contract';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useRouteError } from 'react-router';
import {
  isMissingChunkError,
  isReloadingForNewBuild,
  mayReloadForNewBuild,
  reloadForNewBuild,
} from '../app/new-build';
import { PageLoader } from './page-loader';
import { PublicPage } from './public-page';

/**
 * Last-resort screen for an error while rendering or loading a route (e.g. a stale chunk after a
 * new release). Reloading fetches the current build.
 */
export function RouteError() {
  const error = useRouteError();
  // A chunk of an older build (this tab was opened before a release): one reload opens the same
  // address with the new build; the loader stays meanwhile (app/new-build.ts).
  const [reloading] = useState(
    () => isMissingChunkError(error) && (isReloadingForNewBuild() || mayReloadForNewBuild()),
  );
  useEffect(() => {
    if (!reloading) console.error(error);
    else if (!isReloadingForNewBuild()) reloadForNewBuild();
  }, [error, reloading]);
  if (reloading) return <PageLoader />;
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
