import {
  IDENTITY_PROVIDER_TYPES,
  MESSAGES,
  formatMessage,
  REQUIRED_PROVIDER_FIELDS,
  TOAST_AUTO_CLOSE_MS,
  splitCallbackUrls,
  type IdentityProvider,
  type IdentityProviderBody,
  type IdentityProviderType,
} from '@fleetdeck/contract';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { QueryErrorAlert } from '../../../../components/query-error-alert';
import { TableScrollRegion } from '../../../../components/table-scroll-region';
import { SecretInput } from '../../../../components/secret-input';
import { errorMessage } from '../../../../lib/api-error';
import {
  useDeleteIdentityProvider,
  useSaveIdentityProvider,
} from '../../api/identity-provider-save.mutation';
import { useIdentityProviders } from '../../api/identity-providers.query';
import type { DeploymentTabProps } from '../../tab-registry';
import { InactivePoolNotice } from './inactive-pool-notice';
import { UrlList } from '../../components/url-list';
import { DEPLOYMENT_LABELS as L } from '../../labels';

const TYPE_LABELS: Record<IdentityProviderType, string> = {
  Google: L.providerGoogle,
  SignInWithApple: L.providerApple,
  GitHub: L.providerGitHub,
};

interface ProviderForm {
  provider_type: IdentityProviderType;
  client_id: string;
  client_secret: string;
  provider_name: string;
  key_id: string;
  team_id: string;
  private_key: string;
  callback_urls: string;
  enabled: boolean;
  issuer: string;
}

/** The editor's default: Google, empty (access §4: cancel resets to it). */
const GOOGLE_DEFAULT: ProviderForm = {
  provider_type: 'Google',
  client_id: '',
  client_secret: '',
  provider_name: '',
  key_id: '',
  team_id: '',
  private_key: '',
  callback_urls: '',
  enabled: true,
  issuer: '',
};

function formOf(provider: IdentityProvider): ProviderForm {
  return {
    ...GOOGLE_DEFAULT,
    provider_type: provider.provider_type,
    client_id: provider.client_id,
    provider_name: provider.provider_name ?? '',
    key_id: provider.key_id ?? '',
    team_id: provider.team_id ?? '',
    callback_urls: provider.callback_urls.join(', '),
    enabled: provider.enabled,
    issuer: provider.issuer ?? '',
  };
}

/** The spec's two checks, in its words; in edit mode an empty secret keeps the stored one. */
function validate(form: ProviderForm, mode: 'create' | 'edit'): string | null {
  const secretField = form.provider_type === 'SignInWithApple' ? 'private_key' : 'client_secret';
  for (const field of REQUIRED_PROVIDER_FIELDS[form.provider_type]) {
    if (mode === 'edit' && field === secretField) continue;
    if (form[field].trim() === '') return MESSAGES.provideAllDetails;
  }
  if (splitCallbackUrls(form.callback_urls).length === 0) return MESSAGES.callbackUrlsBlank;
  return null;
}

function bodyOf(form: ProviderForm): IdentityProviderBody {
  const apple = form.provider_type === 'SignInWithApple';
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return {
    provider_type: form.provider_type,
    client_id: form.client_id.trim(),
    callback_urls: splitCallbackUrls(form.callback_urls),
    enabled: form.enabled,
    ...(text(form.issuer) ? { issuer: text(form.issuer) } : {}),
    ...(apple
      ? {
          provider_name: text(form.provider_name),
          key_id: text(form.key_id),
          team_id: text(form.team_id),
          ...(form.private_key.trim() ? { private_key: form.private_key.trim() } : {}),
        }
      : form.client_secret.trim()
        ? { client_secret: form.client_secret.trim() }
        : {}),
  };
}

/** Identity Providers (access §2, §4, §5): the pool's providers and the add/edit editor. */
export function IdentityProvidersTab({ emailMobileUserpool }: DeploymentTabProps) {
  const providers = useIdentityProviders(emailMobileUserpool);
  const save = useSaveIdentityProvider();
  const remove = useDeleteIdentityProvider();
  const [editor, setEditor] = useState<'closed' | 'create' | 'edit'>('closed');
  const [form, setForm] = useState<ProviderForm>(GOOGLE_DEFAULT);
  const [problem, setProblem] = useState<string | null>(null);

  const list = Object.values(providers.data?.identity_providers ?? {});
  const existing = providers.data?.identity_providers[form.provider_type];

  const close = () => {
    setEditor('closed');
    setForm(GOOGLE_DEFAULT);
    setProblem(null);
    save.reset();
  };
  const open = (mode: 'create' | 'edit', next: ProviderForm) => {
    save.reset();
    setProblem(null);
    setForm(next);
    setEditor(mode);
  };
  // An edit answers the last attempt's message: it no longer describes what is on screen.
  const set = <K extends keyof ProviderForm>(name: K, value: ProviderForm[K]) => {
    setForm((current) => ({ ...current, [name]: value }));
    setProblem(null);
    if (save.isError) save.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const mode = editor === 'edit' ? 'edit' : 'create';
    const found = validate(form, mode);
    setProblem(found);
    if (found) return;
    save.mutate(
      { emailMobileUserpool, mode, body: bodyOf(form) },
      {
        onSuccess: (answer) => {
          notifications.show({
            color: 'fleet',
            message: answer.description,
            autoClose: TOAST_AUTO_CLOSE_MS,
          });
          close();
        },
      },
    );
  };

  const deleteProvider = (type: IdentityProviderType) =>
    remove.mutate(
      { emailMobileUserpool, providerType: type },
      {
        onSuccess: (answer) =>
          notifications.show({
            color: 'fleet',
            message: answer.description,
            autoClose: TOAST_AUTO_CLOSE_MS,
          }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: errorMessage(error),
            autoClose: TOAST_AUTO_CLOSE_MS,
          }),
      },
    );

  const apple = form.provider_type === 'SignInWithApple';
  const secretHint = (masked: string | undefined) =>
    editor === 'edit' && masked ? formatMessage(L.keepStoredSecret, { masked }) : undefined;

  return (
    <Stack gap="md">
      <InactivePoolNotice emailMobileUserpool={emailMobileUserpool} />
      <Text size="sm" c="dimmed">
        {MESSAGES.identityProvidersIntro}
      </Text>

      {providers.isPending ? (
        <Skeleton height={96} />
      ) : providers.isError ? (
        <QueryErrorAlert
          error={providers.error}
          retryLabel={L.retry}
          onRetry={() => void providers.refetch()}
        />
      ) : list.length === 0 ? (
        <Paper withBorder p="md" bg="var(--mantine-color-gray-0)">
          <Text size="sm">{L.noIdentityProviders}</Text>
        </Paper>
      ) : (
        <TableScrollRegion label={L.identityProvidersTable} minWidth={640}>
          <Table verticalSpacing="sm" aria-label={L.identityProvidersTable}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{L.columnProvider}</Table.Th>
                <Table.Th>{L.columnClientId}</Table.Th>
                <Table.Th>{L.columnSecret}</Table.Th>
                <Table.Th>{L.columnCallbackUrls}</Table.Th>
                <Table.Th>{L.columnLoginPage}</Table.Th>
                <Table.Th aria-label={L.columnActions} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((provider) => {
                const name = TYPE_LABELS[provider.provider_type];
                return (
                  <Table.Tr key={provider.provider_type}>
                    <Table.Td fw={600}>{name}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{provider.client_id}</Table.Td>
                    <Table.Td ff="monospace">
                      {provider.client_secret ?? provider.private_key ?? ''}
                    </Table.Td>
                    <Table.Td>
                      <UrlList urls={provider.callback_urls} />
                    </Table.Td>
                    <Table.Td>
                      <Badge color={provider.enabled ? 'teal' : 'gray'} variant="light">
                        {provider.enabled ? L.loginPageShown : L.loginPageHidden}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => open('edit', formOf(provider))}
                          aria-label={formatMessage(L.editNamed, { name })}
                        >
                          {L.edit}
                        </Button>
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          loading={
                            remove.isPending &&
                            remove.variables.providerType === provider.provider_type
                          }
                          onClick={() => deleteProvider(provider.provider_type)}
                          aria-label={formatMessage(L.deleteNamed, { name })}
                        >
                          {L.delete}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </TableScrollRegion>
      )}

      {editor === 'closed' ? (
        <Group>
          <Button
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={() => open('create', GOOGLE_DEFAULT)}
          >
            {L.addIdentityProvider}
          </Button>
        </Group>
      ) : (
        <Paper withBorder p="md" component="section" aria-labelledby="provider-editor-title">
          <form onSubmit={submit} noValidate data-testid="identity-provider-form">
            <Stack gap="sm">
              <Title order={3} size="h4" id="provider-editor-title">
                {editor === 'edit'
                  ? formatMessage(L.editNamed, { name: TYPE_LABELS[form.provider_type] })
                  : L.addIdentityProvider}
              </Title>
              <Select
                size="md"
                label={L.providerType}
                data={IDENTITY_PROVIDER_TYPES.map((type) => ({
                  value: type,
                  label: TYPE_LABELS[type],
                }))}
                value={form.provider_type}
                allowDeselect={false}
                disabled={editor === 'edit'}
                onChange={(value) => {
                  if (!value) return;
                  setForm({ ...GOOGLE_DEFAULT, provider_type: value });
                  setProblem(null);
                }}
                description={
                  editor === 'create' && existing ? L.providerAlreadyConfigured : undefined
                }
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label={L.columnClientId}
                  value={form.client_id}
                  onChange={(event) => set('client_id', event.currentTarget.value)}
                  autoComplete="off"
                />
                {apple ? (
                  <TextInput
                    label={L.providerName}
                    value={form.provider_name}
                    onChange={(event) => set('provider_name', event.currentTarget.value)}
                    autoComplete="off"
                  />
                ) : (
                  <SecretInput
                    label={L.clientSecret}
                    value={form.client_secret}
                    onChange={(event) => set('client_secret', event.currentTarget.value)}
                    description={secretHint(existing?.client_secret)}
                    autoComplete="new-password"
                  />
                )}
                {apple && (
                  <>
                    <TextInput
                      label={L.keyId}
                      value={form.key_id}
                      onChange={(event) => set('key_id', event.currentTarget.value)}
                      autoComplete="off"
                    />
                    <TextInput
                      label={L.teamId}
                      value={form.team_id}
                      onChange={(event) => set('team_id', event.currentTarget.value)}
                      autoComplete="off"
                    />
                  </>
                )}
              </SimpleGrid>
              {apple && (
                <Textarea
                  label={L.privateKey}
                  description={secretHint(existing?.private_key) ?? L.applePrivateKeyHint}
                  value={form.private_key}
                  onChange={(event) => set('private_key', event.currentTarget.value)}
                  autosize
                  minRows={3}
                  maxRows={8}
                  ff="monospace"
                  spellCheck={false}
                />
              )}
              <Textarea
                label={L.columnCallbackUrls}
                description={MESSAGES.providerCallbackUrlsHint}
                value={form.callback_urls}
                onChange={(event) => set('callback_urls', event.currentTarget.value)}
                autosize
                minRows={2}
                spellCheck={false}
              />
              <TextInput
                label={L.issuer}
                description={
                  form.provider_type === 'GitHub' ? L.issuerHintGitHub : L.issuerHintOpenId
                }
                value={form.issuer}
                onChange={(event) => set('issuer', event.currentTarget.value)}
                autoComplete="off"
              />
              <Switch
                label={L.showOnLoginPage}
                checked={form.enabled}
                onChange={(event) => set('enabled', event.currentTarget.checked)}
              />
              {(problem ?? save.error) && (
                <Alert color="red" variant="light" role="alert">
                  {problem ?? errorMessage(save.error)}
                </Alert>
              )}
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={close}>
                  {L.cancel}
                </Button>
                <Button type="submit" loading={save.isPending}>
                  {L.save}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
    </Stack>
  );
}
