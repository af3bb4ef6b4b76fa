import {
  DeleteCodeFormSchema,
  MESSAGES,
  VERIFICATION_CODE_LENGTH,
  formatMessage,
} from '@fleetdeck/contract';
import { Alert, Button, Group, Modal, PinInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { useDeleteUser, useRequestUserDeletion } from '../api/delete-user.mutation';
import { USER_LABELS } from '../labels';

type Step = { kind: 'confirm' } | { kind: 'code' } | { kind: 'done'; ok: boolean; message: string };

/**
 * Two-step user deletion (fleet-management §2, §4, §5): confirm, which mails a 6-digit code to
 * the signed-in admin; enter the code ('enter verification code!' when empty); then the result,
 * and 'Ok' returns to the list.
 */
export function DeleteUserModal({
  opened,
  userName,
  adminName,
  onCancel,
  onFinished,
}: {
  opened: boolean;
  userName: string;
  adminName: string;
  onCancel: () => void;
  /** 'Ok' after the result; `deleted` tells whether to go back to the list. */
  onFinished: (deleted: boolean) => void;
}) {
  const request = useRequestUserDeletion();
  const remove = useDeleteUser();
  const [step, setStep] = useState<Step>({ kind: 'confirm' });
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const busy = request.isPending || remove.isPending;

  const sendCode = () => {
    request.mutate(userName, {
      onSuccess: () => {
        setCode('');
        setCodeError(null);
        setStep({ kind: 'code' });
      },
      onError: (error) => setStep({ kind: 'done', ok: false, message: errorMessage(error) }),
    });
  };

  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = DeleteCodeFormSchema.safeParse({ code });
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? MESSAGES.enterVerificationCodeAlert);
      return;
    }
    remove.mutate(
      { userName, code: parsed.data.code },
      {
        onSuccess: () => setStep({ kind: 'done', ok: true, message: MESSAGES.userDeleted }),
        onError: (error) => setCodeError(errorMessage(error)),
      },
    );
  };

  const close = () => {
    if (busy) return;
    if (step.kind === 'done') onFinished(step.ok);
    else onCancel();
  };

  return (
    <Modal opened={opened} onClose={close} title={USER_LABELS.deleteTitle} centered>
      <Stack gap="lg" data-testid="delete-user-modal">
        {step.kind === 'confirm' && (
          <>
            <Text>
              {formatMessage(USER_LABELS.deleteIntro, { user: userName, admin: adminName })}
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onCancel} disabled={busy} data-autofocus>
                {USER_LABELS.cancel}
              </Button>
              <Button color="red" onClick={sendCode} loading={request.isPending}>
                {USER_LABELS.sendCode}
              </Button>
            </Group>
          </>
        )}
        {step.kind === 'code' && (
          <form onSubmit={confirm} noValidate>
            <Stack gap="md">
              <Text size="sm">
                {formatMessage(USER_LABELS.codeSent, { admin: adminName, user: userName })}
              </Text>
              <Stack gap={4}>
                <Text size="sm" fw={500} component="label" id="delete-code-label">
                  {USER_LABELS.codeLabel}
                </Text>
                <PinInput
                  length={VERIFICATION_CODE_LENGTH}
                  type="number"
                  oneTimeCode
                  value={code}
                  onChange={(value) => {
                    setCode(value);
                    setCodeError(null);
                  }}
                  error={codeError !== null}
                  aria-labelledby="delete-code-label"
                  data-testid="delete-code"
                  data-autofocus
                />
              </Stack>
              {codeError && (
                <Alert color="red" variant="light" role="alert" data-testid="delete-code-error">
                  {codeError}
                </Alert>
              )}
              <Group justify="space-between" gap="sm">
                <Button variant="subtle" size="xs" onClick={sendCode} loading={request.isPending}>
                  {USER_LABELS.resendCode}
                </Button>
                <Group gap="sm">
                  <Button variant="default" onClick={onCancel} disabled={busy}>
                    {USER_LABELS.cancel}
                  </Button>
                  <Button type="submit" color="red" loading={remove.isPending}>
                    {USER_LABELS.confirmDelete}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </form>
        )}
        {step.kind === 'done' && (
          <>
            <Text
              c={step.ok ? undefined : 'red'}
              role={step.ok ? 'status' : 'alert'}
              data-testid="delete-user-result"
            >
              {step.message}
            </Text>
            <Group justify="flex-end">
              <Button onClick={() => onFinished(step.ok)} data-autofocus>
                {USER_LABELS.ok}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
