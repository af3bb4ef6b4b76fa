import {
  MESSAGES,
  MOBILE_PUSH_INTEGRATION,
  PUSH_EVENT_LABELS,
  PUSH_EVENTS,
  PUSH_PLATFORM_LABELS,
  PUSH_PLATFORMS,
  TOAST_AUTO_CLOSE_MS,
  formatMessage,
  pushEventType,
  type MobilePlatform,
  type MobilePlatformCreateBody,
  type PushEvent,
  type PushPlatform,
} from '@fleetdeck/contract';
import {
  Alert,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { KeyMaterialInput } from '../../../../components/key-material-input';
import { QueryErrorAlert } from '../../../../components/query-error-alert';
import { TableScrollRegion } from '../../../../components/table-scroll-region';
import { errorMessage } from '../../../../lib/api-error';
import { useEventFilters, usePlatforms, usePushIntegration } from '../../api/push-settings.query';
import {
  useCreatePlatform,
  useDeletePlatform,
  useSetEventFilter,
  useSetPushIntegration,
} from '../../api/push-settings.mutation';
import { DEPLOYMENT_LABELS as L } from '../../labels';
import type { DeploymentTabProps } from '../../tab-registry';

const toast = (message: string, color = 'fleet') =>
  notifications.show({ color, message, autoClose: TOAST_AUTO_CLOSE_MS });

const Loading = ({ label }: { label: string }) => (
  <Center py="md">
    <Loader size="sm" aria-label={label} />
  </Center>
);

/** The master switch and the 12 per-event switches (disabled while the master is off). */
function NotificationSwitches() {
  const integration = usePushIntegration();
  const filters = useEventFilters();
  const setMaster = useSetPushIntegration();
  const setFilter = useSetEventFilter();
  const [pendingEvent, setPendingEvent] = useState<PushEvent | null>(null);

  if (integration.isPending || filters.isPending) return <Loading label={L.loadingPushSwitches} />;
  if (integration.isError)
    return (
      <QueryErrorAlert
        error={integration.error}
        retryLabel={L.retry}
        onRetry={() => void integration.refetch()}
      />
    );
  if (filters.isError)
    return (
      <QueryErrorAlert
        error={filters.error}
        retryLabel={L.retry}
        onRetry={() => void filters.refetch()}
      />
    );

  const master = integration.data.integration_info_list.find(
    (row) =>
      row.service_name === MOBILE_PUSH_INTEGRATION && row.endpoint_name === MOBILE_PUSH_INTEGRATION,
  );
  const masterOn = master?.enabled === true;
  const filterOf = (event: PushEvent) =>
    filters.data.event_entity_mapping_list.find((row) => row.event_type === pushEventType(event));

  const toggleMaster = (enabled: boolean) =>
    setMaster.mutate(
      { enabled, exists: master !== undefined },
      {
        onSuccess: () =>
          toast(
            enabled ? MESSAGES.mobileNotificationsEnabled : MESSAGES.mobileNotificationsDisabled,
          ),
        onError: (error) => toast(errorMessage(error), 'red'),
      },
    );

  const toggleEvent = (event: PushEvent, enabled: boolean) => {
    setPendingEvent(event);
    setFilter.mutate(
      { event, enabled, exists: filterOf(event) !== undefined },
      {
        onSuccess: () => toast(MESSAGES.eventFilterConfigured),
        onError: (error) => toast(errorMessage(error), 'red'),
        onSettled: () => setPendingEvent(null),
      },
    );
  };

  return (
    <Stack gap="md">
      <Paper withBorder p="md" bg="gray.0">
        <Switch
          size="md"
          label={L.mobilePush}
          description={L.mobilePushHint}
          checked={masterOn}
          disabled={setMaster.isPending}
          onChange={(event) => toggleMaster(event.currentTarget.checked)}
        />
      </Paper>
      <SimpleGrid
        cols={{ base: 1, sm: 2 }}
        spacing="sm"
        verticalSpacing="sm"
        role="group"
        aria-label={L.pushEvents}
      >
        {PUSH_EVENTS.map((event) => {
          const current = filterOf(event);
          const on =
            current?.enabled === true &&
            current.enabled_for_integrations.includes(MOBILE_PUSH_INTEGRATION);
          return (
            <Switch
              key={event}
              label={PUSH_EVENT_LABELS[event]}
              checked={on}
              disabled={!masterOn || pendingEvent === event}
              onChange={(change) => toggleEvent(event, change.currentTarget.checked)}
            />
          );
        })}
      </SimpleGrid>
      {!masterOn && (
        <Text size="xs" c="dimmed">
          {L.pushEventsNeedMaster}
        </Text>
      )}
    </Stack>
  );
}

/** The create form: GCM takes the FCM service-account JSON; APNs a certificate and its key. */
function CreatePlatformModal({
  available,
  onClose,
}: {
  available: PushPlatform[];
  onClose: () => void;
}) {
  const create = useCreatePlatform();
  const [platform, setPlatform] = useState<PushPlatform>(available[0] ?? 'GCM');
  const [apiKey, setApiKey] = useState('');
  const [certificate, setCertificate] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** An edit leaves the last attempt's message behind: it no longer describes the form. */
  const edited =
    (setValue: (value: string) => void) =>
    (value: string): void => {
      setValue(value);
      setError(null);
    };

  const complete =
    platform === 'GCM'
      ? apiKey.trim() !== ''
      : certificate.trim() !== '' && privateKey.trim() !== '';

  const submit = () => {
    if (!complete) {
      setError(MESSAGES.provideAllDetails);
      return;
    }
    const body: MobilePlatformCreateBody =
      platform === 'GCM'
        ? { platform, api_key: apiKey.trim() }
        : { platform, ssl_certificate: certificate.trim(), private_key: privateKey.trim() };
    create.mutate(body, {
      onSuccess: () => {
        toast(MESSAGES.platformCreated);
        onClose();
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  };

  return (
    <Modal opened onClose={onClose} title={L.createPlatformTitle} centered size="lg">
      <Stack gap="md">
        <Select
          size="md"
          label={L.columnPlatform}
          data={available.map((value) => ({
            value,
            label: formatMessage(L.platformOption, {
              label: PUSH_PLATFORM_LABELS[value],
              platform: value,
            }),
          }))}
          value={platform}
          allowDeselect={false}
          onChange={(value) => {
            if (value) setPlatform(value);
            setError(null);
          }}
        />
        {platform === 'GCM' ? (
          <KeyMaterialInput
            label={L.apiKey}
            description={L.apiKeyHint}
            value={apiKey}
            onChange={edited(setApiKey)}
            minRows={6}
          />
        ) : (
          <>
            <KeyMaterialInput
              label={L.sslCertificate}
              description={L.sslCertificateHint}
              value={certificate}
              onChange={edited(setCertificate)}
              minRows={5}
            />
            <KeyMaterialInput
              label={L.privateKey}
              description={L.certificatePrivateKeyHint}
              value={privateKey}
              onChange={edited(setPrivateKey)}
              minRows={5}
            />
          </>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={create.isPending}>
            {L.cancel}
          </Button>
          <Button onClick={submit} loading={create.isPending}>
            {L.create}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function DeletePlatformModal({
  platform,
  onClose,
}: {
  platform: MobilePlatform;
  onClose: () => void;
}) {
  const remove = useDeletePlatform();
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal opened onClose={onClose} title={L.deletePlatformTitle} centered>
      <Stack gap="md">
        <Text size="sm">
          {formatMessage(L.deletePlatformConfirm, {
            label: PUSH_PLATFORM_LABELS[platform.platform],
            name: platform.name,
          })}
        </Text>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={remove.isPending}>
            {L.cancel}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(platform.platform_application_arn, {
                onSuccess: () => {
                  toast(MESSAGES.mobilePlatformDeleted);
                  onClose();
                },
                onError: (failure) => setError(errorMessage(failure)),
              })
            }
          >
            {L.delete}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The platforms list: a type is offered for creation only while it does not exist. */
function Platforms() {
  const platforms = usePlatforms();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<MobilePlatform | null>(null);
  if (platforms.isPending) return <Loading label={L.loadingMobilePlatforms} />;
  if (platforms.isError)
    return (
      <QueryErrorAlert
        error={platforms.error}
        retryLabel={L.retry}
        onRetry={() => void platforms.refetch()}
      />
    );
  const existing = new Set(platforms.data.map((row) => row.platform));
  const available = PUSH_PLATFORMS.filter((platform) => !existing.has(platform));

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          {L.mobilePlatformsHeading}
        </Title>
        <Button
          size="sm"
          leftSection={<IconPlus size={16} aria-hidden="true" />}
          disabled={available.length === 0}
          onClick={() => setCreating(true)}
        >
          {L.createPlatform}
        </Button>
      </Group>
      {platforms.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {L.noMobilePlatforms}
        </Text>
      ) : (
        <TableScrollRegion label={L.mobilePlatformsHeading} minWidth={560}>
          <Table withTableBorder verticalSpacing="sm" aria-label={L.mobilePlatformsHeading}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{L.columnPlatform}</Table.Th>
                <Table.Th>{L.columnName}</Table.Th>
                <Table.Th>{L.columnDetails}</Table.Th>
                <Table.Th w={60}>
                  <VisuallyHidden>{L.columnActions}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {platforms.data.map((row) => (
                <Table.Tr key={row.platform_application_arn}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {PUSH_PLATFORM_LABELS[row.platform]}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {row.platform}
                    </Text>
                  </Table.Td>
                  <Table.Td>{row.name}</Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {row.Attributes.ProjectId
                        ? formatMessage(L.platformProject, { project: row.Attributes.ProjectId })
                        : row.Attributes.AppleCertificateExpirationDate
                          ? formatMessage(L.platformCertificateExpires, {
                              date: row.Attributes.AppleCertificateExpirationDate.slice(0, 10),
                            })
                          : row.Attributes.AuthenticationMethod}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      aria-label={formatMessage(L.deleteNamed, { name: row.platform })}
                      onClick={() => setDeleting(row)}
                    >
                      <IconTrash size={16} aria-hidden="true" />
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScrollRegion>
      )}
      {creating && <CreatePlatformModal available={available} onClose={() => setCreating(false)} />}
      {deleting && <DeletePlatformModal platform={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

/** Push Notifications (access §2, §4, §9). */
export function PushNotificationsTab(_props: DeploymentTabProps) {
  return (
    <Stack gap="lg">
      <NotificationSwitches />
      <Divider />
      <Platforms />
    </Stack>
  );
}
