import { INPUT_MAX_LENGTH, MESSAGES, type SignUpForm as SignUpValues } from '@fleetdeck/contract';
import { Anchor, Button, Checkbox, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { NewPasswordFields } from './new-password-fields';
import { errorMessage } from '../../../lib/api-error';
import type { FormErrors } from '../../../lib/form-errors';
import { validateForm } from '../../../lib/validate-form';
import { fieldError, useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { LOGIN_PATH, TERMS_OF_SERVICE_PATH, VERIFICATION_PATH } from '../../../lib/paths';
import { useSignUp } from '../api/sign-up.mutation';
import { rememberSignUp } from '../pending-sign-in';
import { successToast } from '../toast';
import { FormAlert } from './form-alert';

type Field = keyof SignUpValues;
const FIELDS: readonly Field[] = ['user_name', 'password', 'confirm', 'terms'];
const EMPTY: SignUpValues = { user_name: '', password: '', confirm: '', terms: false };
const NO_ERRORS: FormErrors<Field> = { fields: {}, form: null };

/**
 * /sign-up (access §4, §5): e-mail, password, confirm and the terms box, checked with the
 * contract's SignUpFormSchema in the spec's order; then POST /v1/user and on to /verification.
 * The password stays in memory only, for the automatic sign-in after verification.
 */
export function SignUpForm() {
  const navigate = useNavigate();
  const signUp = useSignUp();
  const [values, setValues] = useState<SignUpValues>(EMPTY);
  const [errors, setErrors] = useState<FormErrors<Field>>(NO_ERRORS);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const update = <K extends Field>(field: K, value: SignUpValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors.fields[field] || errors.form) setErrors(NO_ERRORS);
    if (signUp.isError) signUp.reset();
  };

  const validateAndSignUp = async () => {
    const data = await validateForm(
      (schemas) => schemas.SignUpFormSchema,
      values,
      FIELDS,
      setErrors,
    );
    if (!data) {
      focusFirstInvalid();
      return;
    }
    const userName = data.user_name.trim();
    signUp.mutate(
      { user_name: userName, password: data.password },
      {
        onSuccess: () => {
          rememberSignUp({ userName, password: data.password });
          successToast(MESSAGES.verificationCodeSent);
          void navigate(`${VERIFICATION_PATH}?user_name=${encodeURIComponent(userName)}`);
        },
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (signUp.isPending) return;
    void validateAndSignUp();
  };

  const alert = errors.form ?? (signUp.isError ? errorMessage(signUp.error) : null);

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Create your account
        </Title>
        <Text c="dimmed" size="sm">
          We will e-mail you a code to verify your address.
        </Text>
      </Stack>
      <form ref={formRef} onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            name="user_name"
            type="email"
            autoComplete="username"
            inputMode="email"
            placeholder="you@example.com"
            maxLength={INPUT_MAX_LENGTH}
            value={values.user_name}
            onChange={(event) => update('user_name', event.currentTarget.value)}
            error={fieldError(errors.fields.user_name, errors.form, values.user_name)}
          />
          <NewPasswordFields
            labels={{ password: 'Password', confirm: 'Confirm password' }}
            values={values}
            errors={{
              password: fieldError(errors.fields.password, errors.form, values.password),
              confirm: fieldError(errors.fields.confirm, errors.form, values.confirm),
            }}
            onChange={update}
          />
          <Checkbox
            name="terms"
            checked={values.terms}
            onChange={(event) => update('terms', event.currentTarget.checked)}
            error={fieldError(errors.fields.terms, errors.form, values.terms)}
            label={
              <>
                I agree to the{' '}
                <Anchor component={Link} to={TERMS_OF_SERVICE_PATH} target="_blank" inherit>
                  terms of service
                </Anchor>
              </>
            }
          />
          <FormAlert message={alert} />
          <Button type="submit" size="md" fullWidth loading={signUp.isPending}>
            Sign up
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to={LOGIN_PATH} fw={500}>
          Sign in
        </Anchor>
      </Text>
    </Stack>
  );
}
