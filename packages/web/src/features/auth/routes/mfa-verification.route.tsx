import { ERROR_CODES, MESSAGES } from '@fleetdeck/contract';
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { PublicPage } from '../../../components/public-page';
import { errorMessage, isApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { LOGIN_PATH } from '../../../lib/paths';
import { useCompleteMfaSignIn } from '../api/mfa-login.mutation';
import { CodeInput } from '../components/code-input';
import { FormAlert } from '../components/form-alert';
import { forgetMfaStep, pendingMfaStep } from '../pending-sign-in';
import { useContinueSignIn } from '../use-continue-sign-in';

/**
 * /mfa-verification (access §2, §4): the second step of a sign-in. The code texted to the phone,
 * or, with an authenticator app, the app's code or a recovery code. Without a step in progress
 * (a reload) it goes back to /login.
 */
export function MfaVerificationRoute() {
  useDocumentTitle('Verification · Fleetdeck');
  const [step] = useState(pendingMfaStep);
  const complete = useCompleteMfaSignIn();
  const continueSignIn = useContinueSignIn();
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (!step) return <Navigate to={LOGIN_PATH} replace />;

  const verify = async () => {
    let value = code.trim();
    if (!useRecovery) {
      const { CodeFormSchema } = await loadSchemas();
      const parsed = CodeFormSchema.safeParse({ code });
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? MESSAGES.verificationCodeNotValid);
        return;
      }
      value = parsed.data.code;
    } else if (!value) {
      setError(MESSAGES.enterVerificationCode);
      return;
    }
    setError(null);
    complete.mutate(
      { user_name: step.userName, session: step.session, verification_code: value },
      {
        onSuccess: (outcome) => {
          forgetMfaStep();
          continueSignIn(outcome);
        },
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (complete.isPending) return;
    void verify();
  };

  // An expired or used step cannot be retried: only a new sign-in helps.
  const stepGone =
    complete.isError &&
    isApiError(complete.error) &&
    (complete.error.status === 429 || complete.error.error_code === ERROR_CODES.mfaSessionMissing);
  const alert = error ?? (complete.isError ? errorMessage(complete.error) : null);
  const totp = step.challenge === 'totp';

  return (
    <PublicPage>
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h2">
            Two-step verification
          </Title>
          <Text c="dimmed" size="sm">
            {totp
              ? useRecovery
                ? 'Enter one of your recovery codes. Each code works once.'
                : 'Enter the 6-digit code from your authenticator app.'
              : `Enter the 6-digit code we sent to your phone${step.phoneHint ? ` ending in ${step.phoneHint}` : ''}.`}
          </Text>
        </Stack>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {useRecovery ? (
              <TextInput
                label="Recovery code"
                name="recovery-code"
                autoComplete="off"
                maxLength={32}
                value={code}
                onChange={(event) => {
                  setCode(event.currentTarget.value);
                  setError(null);
                }}
                autoFocus
              />
            ) : (
              <CodeInput
                label="Verification code"
                name="code"
                value={code}
                onChange={(event) => {
                  setCode(event.currentTarget.value);
                  setError(null);
                  if (complete.isError) complete.reset();
                }}
                autoFocus
              />
            )}
            <FormAlert message={alert} />
            {stepGone ? (
              <Button component={Link} to={LOGIN_PATH} replace size="md" fullWidth>
                Sign in again
              </Button>
            ) : (
              <Button type="submit" size="md" fullWidth loading={complete.isPending}>
                Verify
              </Button>
            )}
          </Stack>
        </form>
        {totp && (
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setUseRecovery((current) => !current);
              setCode('');
              setError(null);
            }}
          >
            {useRecovery ? 'Use the authenticator app code' : 'Use a recovery code'}
          </Anchor>
        )}
        <Anchor component={Link} to={LOGIN_PATH} size="sm">
          Back to sign in
        </Anchor>
      </Stack>
    </PublicPage>
  );
}
