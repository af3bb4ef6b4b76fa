import {
  INPUT_MAX_LENGTH,
  MESSAGES,
  type NewPasswordForm as NewPasswordValues,
} from '@fleetdeck/contract';
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PublicPage } from '../../../components/public-page';
import { NewPasswordFields } from '../components/new-password-fields';
import { errorMessage } from '../../../lib/api-error';
import type { FormErrors } from '../../../lib/form-errors';
import { validateForm } from '../../../lib/validate-form';
import { fieldError, useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { FORGOT_PASSWORD_PATH, LOGIN_PATH } from '../../../lib/paths';
import { useForgotPassword } from '../api/forgot-password.mutation';
import { signIn } from '../api/login.mutation';
import { FormAlert } from '../components/form-alert';
import { successToast } from '../toast';
import { useContinueSignIn } from '../use-continue-sign-in';

type Field = keyof NewPasswordValues;
const FIELDS: readonly Field[] = ['user_name', 'code', 'password', 'confirm'];
const NO_ERRORS: FormErrors<Field> = { fields: {}, form: null };

/**
 * /set-new-password (access §4, §5): code, new and confirm. Prefilled from `user_name` and `code`
 * in the URL (the reset mail and the invitation link carry them). After the change the user is
 * signed in with the new password ('Password changed successfully. Signing you in...').
 */
export function SetNewPasswordRoute() {
  useDocumentTitle('Set a new password · Fleetdeck');
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const continueSignIn = useContinueSignIn();
  const reset = useForgotPassword();
  const knownAddress = Boolean(params.get('user_name'));
  const invited = Boolean(params.get('code'));
  const [values, setValues] = useState<NewPasswordValues>({
    user_name: params.get('user_name') ?? '',
    code: params.get('code') ?? '',
    password: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<FormErrors<Field>>(NO_ERRORS);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const [signingIn, setSigningIn] = useState(false);
  const [signInError, setSignInError] = useState<string | null>(null);

  const update = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors.fields[field] || errors.form) setErrors(NO_ERRORS);
    if (reset.isError) reset.reset();
  };

  /** 'Password changed successfully. Signing you in...', then the sign-in (access §4). */
  const signInWithNewPassword = async (userName: string, password: string) => {
    successToast(MESSAGES.passwordChangedSigningIn);
    setSigningIn(true);
    try {
      continueSignIn(await signIn(queryClient, { user_name: userName, password }));
    } catch (failure) {
      setSignInError(errorMessage(failure));
      setSigningIn(false);
    }
  };

  const change = async () => {
    const data = await validateForm(
      (schemas) => schemas.NewPasswordFormSchema,
      values,
      FIELDS,
      setErrors,
    );
    if (!data) {
      focusFirstInvalid();
      return;
    }
    const userName = data.user_name.trim();
    reset.mutate(
      { user_name: userName, password: data.password, verification_code: data.code },
      {
        onSuccess: () => void signInWithNewPassword(userName, data.password),
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (reset.isPending || signingIn) return;
    void change();
  };

  const alert = errors.form ?? (reset.isError ? errorMessage(reset.error) : null) ?? signInError;

  return (
    <PublicPage>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {invited ? 'Set your password' : 'Set a new password'}
          </Title>
          <Text c="dimmed" size="sm">
            {knownAddress
              ? `For ${values.user_name}. ${invited ? 'Your invitation code is filled in.' : 'Enter the code we e-mailed you.'}`
              : 'Enter your e-mail address, the code we e-mailed you and your new password.'}
          </Text>
        </Stack>
        <form ref={formRef} onSubmit={submit} noValidate>
          <Stack gap="md">
            {!knownAddress && (
              <TextInput
                label="Email"
                name="user_name"
                type="email"
                autoComplete="username"
                maxLength={INPUT_MAX_LENGTH}
                value={values.user_name}
                onChange={(event) => update('user_name', event.currentTarget.value)}
                error={fieldError(errors.fields.user_name, errors.form, values.user_name)}
              />
            )}
            <TextInput
              label="Verification code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={INPUT_MAX_LENGTH}
              value={values.code}
              onChange={(event) => update('code', event.currentTarget.value)}
              error={fieldError(errors.fields.code, errors.form, values.code)}
            />
            <NewPasswordFields
              labels={{ password: 'New password', confirm: 'Confirm new password' }}
              values={values}
              errors={{
                password: fieldError(errors.fields.password, errors.form, values.password),
                confirm: fieldError(errors.fields.confirm, errors.form, values.confirm),
              }}
              onChange={update}
            />
            <FormAlert message={alert} />
            <Button type="submit" size="md" fullWidth loading={reset.isPending || signingIn}>
              Change password
            </Button>
          </Stack>
        </form>
        <Text size="sm" ta="center">
          <Anchor component={Link} to={FORGOT_PASSWORD_PATH} size="sm">
            Send a new code
          </Anchor>
          {' · '}
          <Anchor component={Link} to={LOGIN_PATH} size="sm">
            Back to sign in
          </Anchor>
        </Text>
      </Stack>
    </PublicPage>
  );
}
