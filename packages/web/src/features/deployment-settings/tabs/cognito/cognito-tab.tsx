import {
  IDENTITY_PROVIDER_TYPES,
  MESSAGES,
  TOAST_AUTO_CLOSE_MS,
  formatMessage,
  splitCallbackUrls,
  type AppClient,
  type IdentityProviderType,
} from '@fleetdeck/contract';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Fragment, useState, type FormEvent } from 'react';
import { QueryErrorAlert } from '../../../../components/query-error-alert';
import { TableScrollRegion } from '../../../../components/table-scroll-region';
import { errorMessage } from '../../../../lib/api-error';
import { useAppClients, useUpdateAppClient } from '../../api/cognito-app-clients.query';
import { useChangeCognitoDomain, useCognitoDomain } from '../../api/cognito-domain.query';
import { useIdentityProviders } from '../../api/identity-providers.query';
import type { DeploymentTabProps } from '../../tab-registry';
import { InactivePoolNotice } from '../identity-providers/inactive-pool-notice';
import { UrlList } from '../../components/url-list';
import { DEPLOYMENT_LABELS as L } from '../../labels';

const toast = (message: string) =>
  notifications.show({ color: 'fleet', message, autoClose: TOAST_AUTO_CLOSE_MS });

/** One app client row in edit mode: callback URLs and providers, with Save and Close. */
function AppClientEditor({
  client,
  configured,
  emailMobileUserpool,
  onClose,
}: {
  client: AppClient;
  configured: readonly IdentityProviderType[];
  emailMobileUserpool: boolean;
  onClose: () => void;
}) {
  const update = useUpdateAppClient();
  const [urls, setUrls] = useState(client.callback_urls.join(',\n'));
  const [providers, setProviders] = useState<string[]>(
    client.identity_providers.filter((p) => configured.includes(p as IdentityProviderType)),
  );
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const list = splitCallbackUrls(urls.replace(/\n/g, ','));
    if (list.length === 0) {
      setProblem(MESSAGES.callbackUrlsBlank);
      return;
    }
    setProblem(null);
    update.mutate(
      {
        emailMobileUserpool,
        client_id: client.client_id,
        callback_urls: list,
        providers: providers as IdentityProviderType[],
      },
      {
        onSuccess: (answer) => {
          toast(answer.description);
          onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="app-client-form">
      <Stack gap="sm">
        <Textarea
          label={L.columnCallbackUrls}
          description={L.appClientCallbackUrlsHint}
          value={urls}
          onChange={(event) => {
            setUrls(event.currentTarget.value);
            setProblem(null);
          }}
          autosize
          minRows={2}
          spellCheck={false}
          data-autofocus
        />
        <Checkbox.Group
          label={L.columnIdentityProviders}
          description={configured.length === 0 ? L.configureProviderFirst : ''}
          value={providers}
          onChange={setProviders}
        >
          <Group mt={6}>
            {IDENTITY_PROVIDER_TYPES.filter((type) => configured.includes(type)).map((type) => (
              <Checkbox key={type} value={type} label={type} />
            ))}
          </Group>
        </Checkbox.Group>
        {(problem ?? update.error) && (
          <Alert color="red" variant="light" role="alert">
            {problem ?? errorMessage(update.error)}
          </Alert>
        )}
        <Group gap="sm">
          <Button type="submit" size="xs" loading={update.isPending}>
            {L.save}
          </Button>
          <Button size="xs" variant="default" onClick={onClose}>
            {L.close}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The pool's domain: Save (non-empty) and Delete (only when one exists). */
function DomainSection({ emailMobileUserpool }: DeploymentTabProps) {
  const domain = useCognitoDomain(emailMobileUserpool);
  if (domain.isPending) return <Skeleton height={72} />;
  if (domain.isError)
    return (
      <QueryErrorAlert
        error={domain.error}
        retryLabel={L.retry}
        onRetry={() => void domain.refetch()}
      />
    );
  const current = domain.data.domain_name;
  // Keyed by the stored value, so the field starts from it after every save or delete.
  return (
    <DomainForm
      key={`${String(emailMobileUserpool)}:${current ?? ''}`}
      current={current}
      emailMobileUserpool={emailMobileUserpool}
    />
  );
}

function DomainForm({
  current,
  emailMobileUserpool,
}: {
  current: string | null;
  emailMobileUserpool: boolean;
}) {
  const change = useChangeCognitoDomain();
  const [value, setValue] = useState(current ?? '');

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = value.trim();
    // The server checks the rule and answers in its own words.
    change.mutate(
      { emailMobileUserpool, domainName: name },
      { onSuccess: (answer) => toast(answer.description) },
    );
  };

  return (
    <form onSubmit={save} noValidate data-testid="cognito-domain-form">
      <Stack gap="sm">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={L.domainName}
            description={MESSAGES.cognitoDomainHint}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            maxLength={63}
            autoComplete="off"
            spellCheck={false}
            style={{ flex: '1 1 260px' }}
          />
          <Button
            type="submit"
            disabled={value.trim() === ''}
            loading={change.isPending && change.variables.domainName !== null}
          >
            {L.save}
          </Button>
          <Button
            color="red"
            variant="outline"
            disabled={current === null}
            loading={change.isPending && change.variables.domainName === null}
            onClick={() =>
              change.mutate(
                { emailMobileUserpool, domainName: null },
                {
                  onSuccess: (answer) => toast(answer.description),
                },
              )
            }
          >
            {L.delete}
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {current === null ? L.noDomain : formatMessage(L.domainConfigured, { domain: current })}
        </Text>
        {change.error && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(change.error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}

/** Cognito Configurations (access §2, §4): app clients one row at a time, and the domain. */
export function CognitoTab({ emailMobileUserpool }: DeploymentTabProps) {
  const clients = useAppClients(emailMobileUserpool);
  const providers = useIdentityProviders(emailMobileUserpool);
  const [editingRow, setEditingRow] = useState<{ pool: boolean; id: string } | null>(null);
  // Switching the pool closes the row editor.
  const editing = editingRow?.pool === emailMobileUserpool ? editingRow.id : null;
  const setEditing = (id: string | null) =>
    setEditingRow(id === null ? null : { pool: emailMobileUserpool, id });
  const configured = IDENTITY_PROVIDER_TYPES.filter(
    (type) => providers.data?.identity_providers[type] !== undefined,
  );

  return (
    <Stack gap="lg">
      <InactivePoolNotice emailMobileUserpool={emailMobileUserpool} />
      <Stack gap="sm">
        <Title order={3} size="h4">
          {L.appClientsHeading}
        </Title>
        {clients.isPending ? (
          <Skeleton height={96} />
        ) : clients.isError ? (
          <QueryErrorAlert
            error={clients.error}
            retryLabel={L.retry}
            onRetry={() => void clients.refetch()}
          />
        ) : (
          <TableScrollRegion label={L.appClientsHeading} minWidth={600}>
            <Table verticalSpacing="sm" aria-label={L.appClientsHeading}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{L.columnClient}</Table.Th>
                  <Table.Th>{L.columnUserPoolId}</Table.Th>
                  <Table.Th>{L.columnCallbackUrls}</Table.Th>
                  <Table.Th>{L.columnIdentityProviders}</Table.Th>
                  <Table.Th aria-label={L.columnActions} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {clients.data.map((client) => (
                  <Fragment key={client.client_id}>
                    <Table.Tr>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {client.client_name}
                        </Text>
                        <Text
                          size="xs"
                          c="dimmed"
                          ff="monospace"
                          style={{ wordBreak: 'break-all' }}
                        >
                          {client.client_id}
                        </Text>
                      </Table.Td>
                      <Table.Td ff="monospace" fz="sm" style={{ wordBreak: 'break-all' }}>
                        {client.user_poolid}
                      </Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>
                        <UrlList urls={client.callback_urls} />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          {client.identity_providers.length === 0 ? (
                            <Text size="sm" c="dimmed">
                              {L.noProviders}
                            </Text>
                          ) : (
                            client.identity_providers.map((p) => (
                              <Badge key={p} variant="light">
                                {p}
                              </Badge>
                            ))
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="default"
                          disabled={editing !== null}
                          onClick={() => setEditing(client.client_id)}
                          aria-label={formatMessage(L.editNamed, { name: client.client_name })}
                        >
                          {L.edit}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                    {editing === client.client_id && (
                      // The editor gets the table's whole width, under the row it edits.
                      <Table.Tr>
                        <Table.Td colSpan={5} bg="var(--mantine-color-gray-0)">
                          <AppClientEditor
                            client={client}
                            configured={configured}
                            emailMobileUserpool={emailMobileUserpool}
                            onClose={() => setEditing(null)}
                          />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </TableScrollRegion>
        )}
      </Stack>
      <Divider />
      <Stack gap="sm">
        <Title order={3} size="h4">
          {L.domainHeading}
        </Title>
        <DomainSection emailMobileUserpool={emailMobileUserpool} />
      </Stack>
    </Stack>
  );
}
