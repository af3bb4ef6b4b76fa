import { ROLE_LABELS, SERVER_MESSAGES } from '@fleetdeck/contract';
import {
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { CHANGE_PASSWORD_PATH } from '../../../lib/paths';
import { useCurrentUser } from '../api/current-user.query';
import { useUpdateUserSettings } from '../api/user-settings.mutation';
import { AuthenticatorSettings } from '../components/authenticator-settings';
import { DeleteAccountSection } from '../components/delete-account-section';
import { PhoneMfaSettings } from '../components/phone-mfa-settings';
import { useSessionUser } from '../components/session-user';
import { successToast } from '../toast';
import { useFormDraft } from '../use-form-draft';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/**
 * /home/userinfo/ (access §2 lists it empty): the signed-in user's own profile — name, e-mail,
 * roles, sign-in security (SMS MFA with the phone, authenticator app), a link to change the
 * password, and deleting the account.
 */
export function UserInfoRoute() {
  useDocumentTitle('My profile · Fleetdeck');
  const sessionUser = useSessionUser();
  const user = useCurrentUser().data ?? sessionUser;
  const rename = useUpdateUserSettings();
  const [name, setName] = useFormDraft('profile.name', user.name);
  const [nameError, setNameError] = useState<string | null>(null);

  const saveName = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (rename.isPending) return;
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 256) {
      setNameError(SERVER_MESSAGES.userNameInvalid);
      return;
    }
    setNameError(null);
    rename.mutate(
      { name: trimmed },
      {
        onSuccess: (result) => successToast(result.description),
        onError: (error) => setNameError(errorMessage(error)),
      },
    );
  };

  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={2}>
        <Title order={1} size="h2">
          My profile
        </Title>
        <Text c="dimmed" size="sm">
          Your account and how you sign in.
        </Text>
      </Stack>

      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Fact label="E-mail">
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {user.email}
              </Text>
            </Fact>
            <Fact label="Roles">
              <Group gap={6}>
                {user.user_role.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                ) : (
                  user.user_role.map((role) => (
                    <Badge key={role} variant="light">
                      {ROLE_LABELS[role]}
                    </Badge>
                  ))
                )}
              </Group>
            </Fact>
            <Fact label="MFA">
              <Text size="sm">
                {user.totp_enabled
                  ? 'Authenticator app'
                  : user.mfa
                    ? `Text message to ${user.phone_number ?? 'your phone'}`
                    : 'Off'}
              </Text>
            </Fact>
            <Fact label="Password">
              {user.email_user ? (
                <Anchor component={Link} to={CHANGE_PASSWORD_PATH} size="sm">
                  Change password
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  You sign in with an external provider.
                </Text>
              )}
            </Fact>
          </SimpleGrid>
          <Divider />
          <form onSubmit={saveName} noValidate>
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                label="Name"
                name="name"
                autoComplete="name"
                maxLength={256}
                value={name}
                onChange={(event) => {
                  setName(event.currentTarget.value);
                  setNameError(null);
                }}
                error={nameError}
                style={{ flex: '1 1 240px' }}
              />
              <Button type="submit" variant="light" loading={rename.isPending}>
                Save name
              </Button>
            </Group>
          </form>
        </Stack>
      </Paper>

      <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <Title order={2} size="h4">
            Sign-in security
          </Title>
          <PhoneMfaSettings user={user} />
          <Divider />
          <AuthenticatorSettings user={user} />
        </Stack>
      </Paper>

      <DeleteAccountSection email={user.email} />
    </Stack>
  );
}
