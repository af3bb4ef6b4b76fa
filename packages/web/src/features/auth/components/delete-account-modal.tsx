import { MESSAGES, formatMessage } from '@fleetdeck/contract';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { LOGIN_PATH } from '../../../lib/paths';
import { markSignedOut } from '../../../lib/session';
import { useDeleteAccount, useRequestAccountDeletion } from '../api/delete-account.mutation';
import { postLogout } from '../api/logout.mutation';
import { successToast } from '../toast';
import { CodeInput } from './code-input';
import { FormAlert } from './form-alert';

type Step = 'confirm' | 'code';

/**
 * Deleting one's own account in two steps (A.2 self-deletion): the consequence and 'Send code',
 * which mails a 6-digit code to the user's own address; then the code and 'Delete my account'.
 * On success the session is gone: the cookies are cleared and the user lands on /login.
 */
export function DeleteAccountModal({
  opened,
  email,
  onClose,
}: {
  opened: boolean;
  email: string;
  onClose: () => void;
}) {
  const request = useRequestAccountDeletion();
  const remove = useDeleteAccount();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('confirm');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const busy = request.isPending || remove.isPending || leaving;

  const close = () => {
    if (busy) return;
    setStep('confirm');
    setCode('');
    setError(null);
    onClose();
  };

  const sendCode = () => {
    if (busy) return;
    setError(null);
    request.mutate(undefined, {
      onSuccess: () => {
        setCode('');
        setStep('code');
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  };

  const leave = async () => {
    setLeaving(true);
    // The server has ended every session; forget ours first so nothing here reports "expired".
    markSignedOut();
    // The deprecated logout always clears the session cookies, even for a session already gone.
    await postLogout().catch(() => undefined);
    successToast(MESSAGES.accountDeleted);
    await queryClient.cancelQueries();
    await navigate(LOGIN_PATH, { replace: true });
    // Cleared after leaving, so the signed-in screens do not refetch on the way out.
    queryClient.clear();
  };

  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) {
      setError(MESSAGES.enterVerificationCode);
      return;
    }
    const { CodeFormSchema } = await loadSchemas();
    const parsed = CodeFormSchema.safeParse({ code });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? MESSAGES.verificationCodeNotValid);
      return;
    }
    setError(null);
    remove.mutate(parsed.data.code, {
      onSuccess: () => void leave(),
      onError: (failure) => setError(errorMessage(failure)),
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Delete account" centered>
      <Stack gap="lg" data-testid="delete-account-modal">
        {step === 'confirm' ? (
          <>
            <Text>{formatMessage(MESSAGES.deleteAccountConsequence, { email })}</Text>
            <FormAlert message={error} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={busy} data-autofocus>
                Cancel
              </Button>
              <Button color="red" onClick={sendCode} loading={request.isPending}>
                Send code
              </Button>
            </Group>
          </>
        ) : (
          <form onSubmit={(event) => void confirm(event)} noValidate>
            <Stack gap="md">
              <Text size="sm">{formatMessage(MESSAGES.deleteAccountCodeSent, { email })}</Text>
              <CodeInput
                label="Verification code"
                name="code"
                value={code}
                onChange={(event) => {
                  setCode(event.currentTarget.value);
                  setError(null);
                }}
                error={error !== null}
                disabled={remove.isPending || leaving}
                maw={220}
                // The step replaces the focused 'Send code' button: move the focus to the field.
                data-autofocus
                autoFocus
              />
              <FormAlert message={error} />
              <Text size="sm" c="dimmed">
                No mail?{' '}
                <Button
                  variant="subtle"
                  size="compact-sm"
                  onClick={sendCode}
                  loading={request.isPending}
                  disabled={busy}
                >
                  Send a new code
                </Button>
              </Text>
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={close} disabled={busy}>
                  Cancel
                </Button>
                <Button
                  type="submit"
                  color="red"
                  loading={remove.isPending || leaving}
                  disabled={busy}
                >
                  Delete my account
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Modal>
  );
}
