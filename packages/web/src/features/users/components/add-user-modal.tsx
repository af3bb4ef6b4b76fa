import { MESSAGES, TOAST_AUTO_CLOSE_MS, formatMessage } from '@fleetdeck/contract';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { errorMessage, isApiError } from '../../../lib/api-error';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { useCreateUser } from '../api/create-user.mutation';
import { USER_LABELS } from '../labels';
import {
  emptyUserForm,
  roleLabel,
  validateUserForm,
  type UserFormField,
  type UserFormValues,
} from '../model/user-form';
import { UserFields } from './user-fields';
import { useFormDraft } from '../../auth/use-form-draft';

/**
 * Add User (fleet-management §2, §5): every field with its spec message, then POST admin/user2
 * and the personal custom data; 'User created successfully.' as a toast. A failure shows the
 * role and the server's description (§8 "Create-user failure shows the error's role and
 * description fields").
 */
export function AddUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateUser();
  const [values, setValues] = useFormDraft<UserFormValues>('users.add', emptyUserForm);
  const [errors, setErrors] = useState<Partial<Record<UserFormField, string>>>({});
  const [touched, setTouched] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const reset = () => {
    setValues(emptyUserForm());
    setErrors({});
    setTouched(false);
    create.reset();
  };

  const close = () => {
    if (create.isPending) return;
    reset();
    onClose();
  };

  const update = (next: UserFormValues) => {
    setValues(next);
    if (touched) setErrors(validateUserForm(next).errors?.fields ?? {});
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    const { data, errors: found } = validateUserForm(values);
    setErrors(found?.fields ?? {});
    if (!data) {
      focusFirstInvalid();
      return;
    }
    create.mutate(data, {
      onSuccess: () => {
        notifications.show({
          color: 'fleet',
          message: MESSAGES.userCreated,
          autoClose: TOAST_AUTO_CLOSE_MS,
        });
        reset();
        onClose();
      },
    });
  };

  return (
    <Modal opened={opened} onClose={close} title={USER_LABELS.addUser} centered size="lg">
      <form ref={formRef} onSubmit={submit} noValidate data-testid="add-user-form">
        <Stack gap="md">
          <UserFields values={values} errors={errors} onChange={update} />
          <Text size="sm" c="dimmed">
            {USER_LABELS.inviteHint}
          </Text>
          {create.isError && (
            <Alert
              color="red"
              variant="light"
              role="alert"
              icon={<IconAlertCircle size={18} aria-hidden="true" />}
              title={USER_LABELS.createFailed}
              data-testid="add-user-error"
            >
              <Stack gap={2}>
                <Text size="sm">
                  {formatMessage(USER_LABELS.failureRole, {
                    // The failure body's role (§8), shown with the spec labels; else the form's.
                    role:
                      (isApiError(create.error) && create.error.role
                        ? create.error.role
                            .split(',')
                            .map((role) => roleLabel(role.trim()))
                            .join(', ')
                        : values.roles.map(roleLabel).join(', ')) || '—',
                  })}
                </Text>
                <Text size="sm">{errorMessage(create.error)}</Text>
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              {USER_LABELS.cancel}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {USER_LABELS.create}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
