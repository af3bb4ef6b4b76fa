import { formatMessage, type OtaImage } from '@fleetdeck/contract';
import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPhotoCheck, IconRocket } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { FAULT_LABELS } from '../labels';
import { faultImageDetailsPath } from '../model/fault-paths';

/**
 * The fault image that remedies this code, if one was uploaded (access §2 Fault screens): a link
 * to its details and, for users who may start OTA jobs, its push dialog.
 */
export function FaultImageCard({
  code,
  images,
  isPending,
  error,
  canPush,
  onPush,
}: {
  code: string;
  images: readonly OtaImage[] | undefined;
  isPending: boolean;
  error: unknown;
  canPush: boolean;
  onPush: (image: OtaImage) => void;
}) {
  const [latest, ...others] = images ?? [];
  return (
    <Paper withBorder radius="lg" p="md" data-testid="fault-image-card">
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          <IconPhotoCheck size={18} aria-hidden="true" />
          <Title order={2} size="h5">
            {FAULT_LABELS.faultImageHeading}
          </Title>
        </Group>
        {isPending ? (
          <Skeleton height={12} radius="sm" />
        ) : error !== null && error !== undefined ? (
          <Text size="sm" c="red">
            {errorMessage(error)}
          </Text>
        ) : latest === undefined ? (
          <Text size="sm" c="dimmed">
            {formatMessage(FAULT_LABELS.faultImageNone, { code })}
          </Text>
        ) : (
          <>
            <Text size="sm">
              <Anchor
                component={Link}
                to={faultImageDetailsPath(latest.ota_image_id)}
                fw={600}
                data-testid="fault-image-link"
              >
                {latest.image_name}
              </Anchor>{' '}
              <Text span c="dimmed" size="sm">
                {latest.fw_version} · {latest.model}
              </Text>
            </Text>
            {others.length > 0 && (
              <Text size="xs" c="dimmed">
                {formatMessage(FAULT_LABELS.faultImageMore, { count: others.length, code })}
              </Text>
            )}
            {canPush && (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconRocket size={14} aria-hidden="true" />}
                onClick={() => onPush(latest)}
                style={{ alignSelf: 'flex-start' }}
              >
                {FAULT_LABELS.faultImagePush}
              </Button>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
