import { INPUT_MAX_LENGTH, MESSAGES } from '@fleetdeck/contract';
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { PublicPage } from '../../../components/public-page';
import { errorMessage } from '../../../lib/api-error';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { LOGIN_PATH, SET_NEW_PASSWORD_PATH } from '../../../lib/paths';
import { useForgotPassword } from '../api/forgot-password.mutation';
import { FormAlert } from '../components/form-alert';
import { successToast } from '../toast';

/**
 * /forgot-password (access §4, §5): asks for a reset code, then /set-new-password. The answer is
 * the same whether or not the address has an account.
 */
export function ForgotPasswordRoute() {
  useDocumentTitle('Forgot password · Fleetdeck');
  const navigate = useNavigate();
  const request = useForgotPassword();
  const [userName, setUserName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const send = async () => {
    let schemas;
    try {
      schemas = await loadSchemas();
    } catch {
      setError(MESSAGES.somethingWentWrong);
      return;
    }
    const parsed = schemas.ForgotPasswordFormSchema.safeParse({ user_name: userName });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MESSAGES.forgotInvalidUsername);
      focusFirstInvalid();
      return;
    }
    setError(null);
    request.mutate(
      { user_name: parsed.data.user_name },
      {
        onSuccess: () => {
          successToast(MESSAGES.verificationCodeSent);
          void navigate(
            `${SET_NEW_PASSWORD_PATH}?user_name=${encodeURIComponent(parsed.data.user_name)}`,
          );
        },
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.isPending) return;
    void send();
  };

  return (
    <PublicPage>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h2">
            Forgot password
          </Title>
          <Text c="dimmed" size="sm">
            Enter the e-mail address of your account and we will send you a code to set a new
            password.
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
              value={userName}
              onChange={(event) => {
                setUserName(event.currentTarget.value);
                setError(null);
                if (request.isError) request.reset();
              }}
              error={error ?? undefined}
              autoFocus
            />
            <FormAlert message={request.isError ? errorMessage(request.error) : null} />
            <Button type="submit" size="md" fullWidth loading={request.isPending}>
              Send code
            </Button>
          </Stack>
        </form>
        <Text size="sm" ta="center">
          <Anchor component={Link} to={SET_NEW_PASSWORD_PATH} size="sm">
            I already have a code
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
