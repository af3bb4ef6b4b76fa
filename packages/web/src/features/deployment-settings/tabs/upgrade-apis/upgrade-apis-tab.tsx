import { LABELS, TOAST_AUTO_CLOSE_MS } from '@fleetdeck/contract';
import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCircleCheck, IconRefresh } from '@tabler/icons-react';
import { errorMessage } from '../../../../lib/api-error';
import { useUpgradeApis } from '../../api/upgrade-apis.mutation';
import { DEPLOYMENT_LABELS as L } from '../../labels';
import type { DeploymentTabProps } from '../../tab-registry';

/**
 * Upgrade APIs (access §2): after the server binary is upgraded, applies pending database
 * migrations and makes every instance reload its API configuration; the answer says what it did.
 */
export function UpgradeApisTab(_props: DeploymentTabProps) {
  const upgrade = useUpgradeApis();

  const run = () =>
    upgrade.mutate(undefined, {
      onSuccess: (result) =>
        notifications.show({
          color: 'fleet',
          message: result.description,
          autoClose: TOAST_AUTO_CLOSE_MS,
        }),
    });

  return (
    <Stack gap="md" maw={640}>
      <Text size="sm">{L.upgradeApisIntro}</Text>
      <Group>
        <Button
          leftSection={<IconRefresh size={16} aria-hidden="true" />}
          onClick={run}
          loading={upgrade.isPending}
        >
          {LABELS.tabUpgradeApis}
        </Button>
      </Group>
      {upgrade.isSuccess && (
        <Alert
          color="fleet"
          variant="light"
          icon={<IconCircleCheck size={18} aria-hidden="true" />}
          title={L.apisUpgraded}
          data-testid="upgrade-result"
        >
          <Text size="sm">{upgrade.data.description}</Text>
          {upgrade.data.applied_migrations.length > 0 && (
            <List size="sm" mt="xs">
              {upgrade.data.applied_migrations.map((name) => (
                <List.Item key={name}>{name}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      {upgrade.isError && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          icon={<IconAlertCircle size={18} aria-hidden="true" />}
        >
          {errorMessage(upgrade.error)}
        </Alert>
      )}
    </Stack>
  );
}
