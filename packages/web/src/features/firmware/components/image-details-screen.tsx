import type { OtaImage } from '@fleetdeck/contract';
import { formatMessage } from '@fleetdeck/contract';
import {
  Anchor,
  Badge,
  Button,
  CopyButton,
  EmptyState,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconDownload,
  IconFileOff,
  IconRocket,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailField } from '../../../components/detail-field';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { errorMessage, isApiError } from '../../../lib/api-error';
import { useDialogTarget } from '../../../lib/use-dialog-target';
import { useSessionUser } from '../../auth/components/session-user';
import { NodeScreen } from '../../nodes/components/node-screen';
import { firmwareKeys } from '../api/firmware.keys';
import { useImageDetails } from '../api/image-details.query';
import { FIRMWARE_LABELS } from '../labels';
import { formatListDate } from '../../ota/model/job-dates';
import { formatMegabytes } from '../model/image-format';
import { IMAGE_MODES, type ImageMode, type ImageModeConfig } from '../model/image-modes';
import { DeleteImageModal } from './delete-image-modal';
import { StartOtaModal, type OtaImageRef } from './start-ota-modal';

interface DetailField {
  label: string;
  value: (image: OtaImage) => ReactNode;
  /** Spans the whole row (long values such as URLs and checksums). */
  wide?: boolean;
}

function orNone(value: string | undefined): string {
  return value !== undefined && value.trim() !== '' ? value : FIRMWARE_LABELS.none;
}

/** A hash or id with its Copy button; the value wraps, the button keeps its width. */
function Mono({ children }: { children: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text ff="monospace" fz="sm" miw={0} style={{ wordBreak: 'break-all' }}>
        {children}
      </Text>
      <CopyButton value={children}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="subtle" onClick={copy} style={{ flexShrink: 0 }}>
            {copied ? FIRMWARE_LABELS.copied : FIRMWARE_LABELS.copy}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

function DownloadLink({ image }: { image: OtaImage }) {
  return (
    <Anchor href={image.image_url} download={image.file_name} fz="sm" data-testid="image-url">
      <Group gap={4} component="span" wrap="nowrap">
        <IconDownload size={14} aria-hidden="true" />
        {image.file_name || FIRMWARE_LABELS.download}
      </Group>
    </Anchor>
  );
}

/** Which fields each kind of image shows, in order (fleet-management §2; access §2). */
function fieldsOf(config: ImageModeConfig): DetailField[] {
  const uploaded = (image: OtaImage) =>
    formatListDate(image.upload_timestamp, { utc: config.utcDates }) ?? FIRMWARE_LABELS.none;
  if (config.mode === 'fault')
    return [
      { label: FIRMWARE_LABELS.faultProductName, value: (image) => image.image_name },
      { label: FIRMWARE_LABELS.faultId, value: (image) => orNone(image.fault_id) },
      { label: FIRMWARE_LABELS.faultProductType, value: (image) => image.type },
      { label: FIRMWARE_LABELS.faultModel, value: (image) => orNone(image.model) },
      { label: FIRMWARE_LABELS.faultFirmwareVersion, value: (image) => orNone(image.fw_version) },
      { label: FIRMWARE_LABELS.faultDate, value: uploaded },
      { label: FIRMWARE_LABELS.fieldImageId, value: (image) => <Mono>{image.ota_image_id}</Mono> },
      {
        label: FIRMWARE_LABELS.faultImageUrl,
        value: (image) => <DownloadLink image={image} />,
        wide: true,
      },
    ];
  return [
    { label: FIRMWARE_LABELS.fieldName, value: (image) => image.image_name },
    { label: FIRMWARE_LABELS.fieldImageId, value: (image) => <Mono>{image.ota_image_id}</Mono> },
    { label: FIRMWARE_LABELS.fieldType, value: (image) => image.type },
    { label: FIRMWARE_LABELS.fieldModel, value: (image) => orNone(image.model) },
    { label: FIRMWARE_LABELS.fieldFwVersion, value: (image) => orNone(image.fw_version) },
    { label: FIRMWARE_LABELS.fieldUploadedAt, value: uploaded },
    {
      label: FIRMWARE_LABELS.fieldFileSize,
      value: (image) =>
        formatMessage(FIRMWARE_LABELS.fileSizeMb, { size: formatMegabytes(image.file_size) }),
    },
    {
      label: FIRMWARE_LABELS.fieldImageUrl,
      value: (image) => <DownloadLink image={image} />,
      wide: true,
    },
    {
      label: FIRMWARE_LABELS.fieldMd5,
      value: (image) => <Mono>{image.file_md5}</Mono>,
      wide: true,
    },
    {
      label: FIRMWARE_LABELS.fieldSha256,
      value: (image) => <Mono>{image.file_sha256}</Mono>,
      wide: true,
    },
  ];
}

function BackLink({ config }: { config: ImageModeConfig }) {
  return (
    <Anchor component={Link} to={config.listPath} size="sm" w="fit-content">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden="true" />
        {config.backLabel}
      </Group>
    </Anchor>
  );
}

/**
 * /home/image-details/{id} and /home/fault-image-details/{id}: the image's fields, a download
 * link, checksums, Start OTA (or the fault screen's push button) and Delete (confirm → result
 * → 'Ok' back to the list). An unknown id is a not-found state with the way back.
 */
export function ImageDetailsScreen({ mode }: { mode: ImageMode }) {
  const config = IMAGE_MODES[mode];
  const { otaImageId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const canWrite = user.permissions.includes(config.writePermission);
  const canStartOta = user.permissions.includes('ota.write');
  const query = useImageDetails(otaImageId);
  const image = query.data;
  const pushing = useDialogTarget<OtaImageRef>();
  const deleting = useDialogTarget<true>();
  const heading =
    mode === 'fault' ? FIRMWARE_LABELS.faultDetailsHeading : FIRMWARE_LABELS.detailsHeading;

  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return (
      <NodeScreen title={FIRMWARE_LABELS.notFoundTitle}>
        <EmptyState py="xl" variant="light" data-testid="image-not-found">
          <EmptyState.Indicator>
            <IconFileOff size={28} stroke={1.6} aria-hidden="true" />
          </EmptyState.Indicator>
          <EmptyState.Title order={2}>{FIRMWARE_LABELS.notFoundTitle}</EmptyState.Title>
          <EmptyState.Description>{errorMessage(query.error)}</EmptyState.Description>
          <EmptyState.Actions>
            <Button
              component={Link}
              to={config.listPath}
              variant="default"
              leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
            >
              {config.backLabel}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </NodeScreen>
    );
  }

  const pushLabel = mode === 'fault' ? FIRMWARE_LABELS.pushImage : FIRMWARE_LABELS.startOta;
  return (
    <NodeScreen title={image?.image_name ?? heading} subtitle={<BackLink config={config} />}>
      {query.isError && (
        <QueryErrorAlert
          error={query.error}
          retryLabel={FIRMWARE_LABELS.tryAgain}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      )}
      {/* Nothing to show after a failure: the alert says so; skeletons would claim it loads. */}
      {!(query.isError && image === undefined) && (
        <Paper withBorder radius="lg" p="md" data-testid="image-fields">
          <Stack gap="md">
            <Group justify="space-between" align="center" gap="sm">
              <Group gap="xs">
                <Text fw={600}>{heading}</Text>
                {image?.archived && (
                  <Badge color="gray" variant="light">
                    {FIRMWARE_LABELS.archivedBadge}
                  </Badge>
                )}
              </Group>
              <Group gap="sm">
                {canStartOta && (
                  <Tooltip
                    label={FIRMWARE_LABELS.archivedNoOta}
                    disabled={!image?.archived}
                    withArrow
                  >
                    <Button
                      leftSection={<IconRocket size={16} aria-hidden="true" />}
                      disabled={image === undefined || image.archived}
                      onClick={() => image && pushing.open(image)}
                    >
                      {pushLabel}
                    </Button>
                  </Tooltip>
                )}
                {canWrite && (
                  <Button
                    color="red"
                    variant="light"
                    leftSection={<IconTrash size={16} aria-hidden="true" />}
                    disabled={image === undefined}
                    onClick={() => deleting.open(true)}
                  >
                    {FIRMWARE_LABELS.deleteImage}
                  </Button>
                )}
              </Group>
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="lg">
              {fieldsOf(config).map((field) => (
                <DetailField key={field.label} label={field.label} span={field.wide}>
                  {image ? field.value(image) : <Skeleton h={14} w={140} />}
                </DetailField>
              ))}
            </SimpleGrid>
          </Stack>
        </Paper>
      )}
      {canStartOta && (
        <StartOtaModal
          key={pushing.target?.ota_image_id ?? 'closed'}
          image={pushing.target}
          onClose={pushing.close}
        />
      )}
      {deleting.target !== null && image !== undefined && (
        <DeleteImageModal
          image={image}
          onCancel={deleting.close}
          onFinished={(deleted) => {
            deleting.close();
            void Promise.resolve(navigate(config.listPath)).then(() => {
              if (deleted) queryClient.removeQueries({ queryKey: firmwareKeys.detail(otaImageId) });
            });
          }}
        />
      )}
    </NodeScreen>
  );
}
