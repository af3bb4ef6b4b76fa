import { INPUT_MAX_LENGTH, MESSAGES } from '@fleetdeck/contract';
import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PublicPage } from '../../../components/public-page';
import { errorMessage } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { LOGIN_PATH, SIGN_UP_PATH } from '../../../lib/paths';
import { signIn } from '../api/login.mutation';
import { useConfirmSignUp, useSignUp } from '../api/sign-up.mutation';
import { CodeInput } from '../components/code-input';
import { FormAlert } from '../components/form-alert';
import { forgetSignUp, pendingSignUp } from '../pending-sign-in';
import { successToast } from '../toast';
import { useContinueSignIn } from '../use-continue-sign-in';

/**
 * /verification (access §2, §4): the 6-digit code from the sign-up mail. Once verified, the user
 * is signed in with the password still held in memory from /sign-up and goes to /home; without
 * it (the page was reloaded) the user signs in on /login.
 */
export function VerificationRoute() {
  useDocumentTitle('Verify your e-mail · Fleetdeck');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const continueSignIn = useContinueSignIn();
  const confirm = useConfirmSignUp();
  const resend = useSignUp();
  const [userName, setUserName] = useState(params.get('user_name') ?? '');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [signingIn, setSigningIn] = useState(false);
  const knownAddress = Boolean(params.get('user_name'));
  const pending = pendingSignUp(userName);

  /** Signs in with the password kept from /sign-up, else sends the user to /login. */
  const afterVerified = async (verifiedName: string) => {
    successToast(MESSAGES.userVerified);
    const credentials = pendingSignUp(verifiedName);
    if (!credentials) {
      void navigate(LOGIN_PATH, { replace: true });
      return;
    }
    setSigningIn(true);
    try {
      const outcome = await signIn(queryClient, {
        user_name: credentials.userName,
        password: credentials.password,
      });
      forgetSignUp();
      continueSignIn(outcome);
    } catch (failure) {
      setError(errorMessage(failure));
      setSigningIn(false);
    }
  };

  const verify = async () => {
    const { CodeFormSchema, ForgotPasswordFormSchema } = await loadSchemas();
    const address = ForgotPasswordFormSchema.safeParse({ user_name: userName });
    if (!address.success) {
      setError(MESSAGES.invalidEmail);
      return;
    }
    const parsed = CodeFormSchema.safeParse({ code });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MESSAGES.verificationCodeNotValid);
      return;
    }
    setError(null);
    confirm.mutate(
      { user_name: address.data.user_name, verification_code: parsed.data.code },
      {
        onSuccess: () => void afterVerified(address.data.user_name),
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (confirm.isPending || signingIn) return;
    void verify();
  };

  const sendAgain = () => {
    if (!pending) return;
    resend.mutate(
      { user_name: pending.userName, password: pending.password },
      { onSuccess: () => successToast(MESSAGES.verificationCodeSent) },
    );
  };

  const alert =
    error ??
    (confirm.isError ? errorMessage(confirm.error) : null) ??
    (resend.isError ? errorMessage(resend.error) : null);

  return (
    <PublicPage>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h2">
            Verify your e-mail
          </Title>
          <Text c="dimmed" size="sm">
            {knownAddress
              ? `Enter the 6-digit code we sent to ${userName}.`
              : 'Enter your e-mail address and the 6-digit code we sent to it.'}
          </Text>
        </Stack>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {!knownAddress && (
              <TextInput
                label="Email"
                name="user_name"
                type="email"
                autoComplete="username"
                maxLength={INPUT_MAX_LENGTH}
                value={userName}
                onChange={(event) => {
                  setUserName(event.currentTarget.value);
                  setError(null);
                }}
              />
            )}
            <CodeInput
              label="Verification code"
              name="code"
              value={code}
              onChange={(event) => {
                setCode(event.currentTarget.value);
                setError(null);
                if (confirm.isError) confirm.reset();
              }}
              data-autofocus
              autoFocus
            />
            <FormAlert message={alert} />
            <Button type="submit" size="md" fullWidth loading={confirm.isPending || signingIn}>
              Verify
            </Button>
          </Stack>
        </form>
        <Group justify="space-between" gap="xs">
          {pending ? (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={sendAgain}
              loading={resend.isPending}
            >
              Send the code again
            </Button>
          ) : (
            <Anchor component={Link} to={SIGN_UP_PATH} size="sm">
              Sign up again
            </Anchor>
          )}
          <Anchor component={Link} to={LOGIN_PATH} size="sm">
            Back to sign in
          </Anchor>
        </Group>
      </Stack>
    </PublicPage>
  );
}
