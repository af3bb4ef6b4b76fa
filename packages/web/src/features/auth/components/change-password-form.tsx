import {
  MESSAGES,
  PASSWORD_MAX_LENGTH,
  TOAST_AUTO_CLOSE_MS,
  type DeploymentMode,
  type PasswordChangeForm as PasswordChangeValues,
} from '@fleetdeck/contract';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { SecretInput } from '../../../components/secret-input';
import { NewPasswordFields } from './new-password-fields';
import { errorMessage } from '../../../lib/api-error';
import type { FormErrors } from '../../../lib/form-errors';
import { validateForm } from '../../../lib/validate-form';
import { fieldError, useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { useChangePassword } from '../api/change-password.mutation';

type Field = keyof PasswordChangeValues;
const FIELDS: readonly Field[] = ['current', 'next', 'confirm'];
const EMPTY: PasswordChangeValues = { current: '', next: '', confirm: '' };
const NO_ERRORS: FormErrors<Field> = { fields: {}, form: null };

/**
 * Change password (fleet-management §2 "User Settings", §5): current, new and confirm, checked
 * with the contract's PasswordChangeFormSchema, then PUT /v1/password.
 */
export function ChangePasswordForm({ mode }: { mode: DeploymentMode }) {
  const changePassword = useChangePassword(mode);
  const [values, setValues] = useState<PasswordChangeValues>(EMPTY);
  const [errors, setErrors] = useState<FormErrors<Field>>(NO_ERRORS);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const update = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors.fields[field] || errors.form) setErrors(NO_ERRORS);
    if (changePassword.isError) changePassword.reset();
  };

  const validateAndChange = async () => {
    const data = await validateForm(
      (schemas) => schemas.PasswordChangeFormSchema,
      values,
      FIELDS,
      setErrors,
    );
    if (!data) {
      focusFirstInvalid();
      return;
    }
    changePassword.mutate(
      { password: data.current, newpassword: data.next },
      {
        onSuccess: () => {
          setValues(EMPTY);
          notifications.show({
            color: 'green',
            message: MESSAGES.passwordChanged,
            autoClose: TOAST_AUTO_CLOSE_MS,
          });
        },
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (changePassword.isPending) return;
    void validateAndChange();
  };

  const alert = errors.form ?? (changePassword.isError ? errorMessage(changePassword.error) : null);

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack gap="md">
        <SecretInput
          label="Current password"
          name="current-password"
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={values.current}
          onChange={(event) => update('current', event.currentTarget.value)}
          error={fieldError(errors.fields.current, errors.form, values.current)}
        />
        <NewPasswordFields
          labels={{ password: 'New password', confirm: 'Confirm new password' }}
          values={{ password: values.next, confirm: values.confirm }}
          errors={{
            password: fieldError(errors.fields.next, errors.form, values.next),
            confirm: fieldError(errors.fields.confirm, errors.form, values.confirm),
          }}
          onChange={(field, value) => update(field === 'password' ? 'next' : 'confirm', value)}
          withHint={false}
        />
        {alert !== null && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} aria-hidden="true" />}
            role="alert"
          >
            {alert}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={changePassword.isPending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
