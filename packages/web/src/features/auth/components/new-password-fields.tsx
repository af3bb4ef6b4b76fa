import { PASSWORD_MAX_LENGTH } from '@fleetdeck/contract';
import { SecretInput } from '../../../components/secret-input';

/** The password rule, said once under every field that sets a new password. */
export const NEW_PASSWORD_HINT =
  'At least 8 characters with an uppercase letter, a lowercase letter and a number.';

/**
 * The new password and its confirmation, as sign-up, set-new-password and change-password ask
 * for them: browser password managers see `new-password` on both, and each shows its own error.
 */
export function NewPasswordFields({
  labels,
  values,
  errors,
  onChange,
  withHint = true,
}: {
  labels: { password: string; confirm: string };
  values: { password: string; confirm: string };
  errors: { password?: string | boolean | undefined; confirm?: string | boolean | undefined };
  onChange: (field: 'password' | 'confirm', value: string) => void;
  withHint?: boolean;
}) {
  return (
    <>
      <SecretInput
        label={labels.password}
        name="new-password"
        autoComplete="new-password"
        {...(withHint ? { description: NEW_PASSWORD_HINT } : {})}
        maxLength={PASSWORD_MAX_LENGTH}
        value={values.password}
        onChange={(event) => onChange('password', event.currentTarget.value)}
        error={errors.password}
      />
      <SecretInput
        label={labels.confirm}
        name="confirm-password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        value={values.confirm}
        onChange={(event) => onChange('confirm', event.currentTarget.value)}
        error={errors.confirm}
      />
    </>
  );
}
