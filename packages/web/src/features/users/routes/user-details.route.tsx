import { TOAST_AUTO_CLOSE_MS, formatMessage, type AdminUser } from '@fleetdeck/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { errorMessage } from '../../../lib/api-error';
import { USER_REGISTRATION_PATH } from '../../../lib/paths';
import { useSessionUser } from '../../auth/components/session-user';
import { NodeScreen } from '../../nodes/components/node-screen';
import { useUpdateUser } from '../api/update-user.mutation';
import { useUser } from '../api/user-list.query';
import { DeleteUserModal } from '../components/delete-user-modal';
import { UserFields } from '../components/user-fields';
import { USER_LABELS } from '../labels';
import { validateUserForm, type UserFormField, type UserFormValues } from '../model/user-form';
import { useFormDraft } from '../../auth/use-form-draft';

function formOf(user: AdminUser): UserFormValues {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    city: user.city,
    phone_number: user.phone_number,
    user_name: user.user_name,
    roles: user.user_role.filter((role) => role !== 'super_admin'),
    geo_region: user.geo_region,
    registration_date: user.registration_date,
  };
}

function UserEditor({ user }: { user: AdminUser }) {
  const me = useSessionUser();
  const navigate = useNavigate();
  const update = useUpdateUser();
  const [values, setValues] = useFormDraft<UserFormValues>(`users.edit.${user.user_name}`, () =>
    formOf(user),
  );
  const [errors, setErrors] = useState<Partial<Record<UserFormField, string>>>({});
  const [deleting, setDeleting] = useState(false);
  const isSelf = user.user_name === me.user_name;
  const cannotDelete = user.super_admin
    ? USER_LABELS.superAdminNoDelete
    : isSelf
      ? USER_LABELS.cannotDeleteSelf
      : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { data, errors: found } = validateUserForm(values);
    setErrors(found?.fields ?? {});
    if (!data) return;
    const { user_name: _userName, roles, ...profile } = data;
    update.mutate(
      {
        userName: user.user_name,
        body: { ...profile, roles: user.super_admin ? ['super_admin', ...roles] : roles },
      },
      {
        onSuccess: () =>
          notifications.show({
            color: 'fleet',
            message: USER_LABELS.saved,
            autoClose: TOAST_AUTO_CLOSE_MS,
          }),
      },
    );
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={submit} noValidate data-testid="user-details-form">
          <Stack gap="md">
            <Group gap="sm" wrap="wrap">
              <Text size="sm" c="dimmed">
                {USER_LABELS.columnUserId}:
              </Text>
              <Text size="sm" ff="monospace">
                {user.user_id}
              </Text>
              {user.super_admin && (
                <Badge color="grape" variant="light" tt="none">
                  {USER_LABELS.superAdminBadge}
                </Badge>
              )}
              <Badge color={user.password_set ? 'teal' : 'yellow'} variant="light" tt="none">
                {user.password_set ? USER_LABELS.passwordSet : USER_LABELS.invitePending}
              </Badge>
            </Group>
            <UserFields values={values} errors={errors} onChange={setValues} lockEmail />
            {update.isError && (
              <Alert color="red" variant="light" role="alert">
                {errorMessage(update.error)}
              </Alert>
            )}
            <Group justify="space-between" gap="sm">
              <Tooltip label={cannotDelete} disabled={cannotDelete === null} withArrow>
                <span>
                  <Button
                    color="red"
                    variant="light"
                    leftSection={<IconTrash size={16} aria-hidden="true" />}
                    onClick={() => setDeleting(true)}
                    disabled={cannotDelete !== null}
                  >
                    {USER_LABELS.deleteUser}
                  </Button>
                </span>
              </Tooltip>
              <Button type="submit" loading={update.isPending}>
                {USER_LABELS.save}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {deleting && (
        <DeleteUserModal
          opened
          userName={user.user_name}
          adminName={me.user_name}
          onCancel={() => setDeleting(false)}
          onFinished={(deleted) => {
            setDeleting(false);
            if (deleted) void navigate(USER_REGISTRATION_PATH);
          }}
        />
      )}
    </Stack>
  );
}

/**
 * /home/userregistration/:userName and /home/user-details/:userName (fleet-management §2): the
 * user's profile and roles with update, and the two-step delete.
 */
export function UserDetailsRoute() {
  const { userName = '' } = useParams();
  const user = useUser(userName);
  return (
    <NodeScreen title={USER_LABELS.detailsHeading} subtitle={userName}>
      <Anchor component={Link} to={USER_REGISTRATION_PATH} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden="true" />
          {USER_LABELS.backToList}
        </Group>
      </Anchor>
      {user.isPending && (
        <Center py="xl">
          <Loader size="sm" aria-label={formatMessage('Loading {user}', { user: userName })} />
        </Center>
      )}
      {user.isError && (
        <QueryErrorAlert
          error={user.error}
          retryLabel={USER_LABELS.tryAgain}
          onRetry={() => void user.refetch()}
        />
      )}
      {user.data === null && (
        <Alert color="yellow" variant="light" role="status">
          {USER_LABELS.notFound}
        </Alert>
      )}
      {user.data && <UserEditor key={user.data.user_id} user={user.data} />}
    </NodeScreen>
  );
}
