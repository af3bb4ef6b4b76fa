import { MESSAGES, TOAST_AUTO_CLOSE_MS, formatMessage } from '@fleetdeck/contract';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { useArchiveJob, useCancelJob } from '../api/update-job.mutation';
import { OTA_LABELS } from '../labels';

export type JobAction = 'cancel' | 'archive';

type Step = { kind: 'confirm' } | { kind: 'done'; ok: boolean; message: string };

const TEXT = {
  cancel: {
    title: OTA_LABELS.cancelTitle,
    confirm: OTA_LABELS.cancelConfirm,
    button: OTA_LABELS.cancelConfirmButton,
    done: MESSAGES.jobCancelled,
    color: 'red',
  },
  archive: {
    title: OTA_LABELS.archiveTitle,
    confirm: OTA_LABELS.archiveConfirm,
    button: OTA_LABELS.archiveConfirmButton,
    done: MESSAGES.jobArchived,
    color: 'fleet',
  },
} as const;

/**
 * Cancel Job and Archive (fleet-management §4): confirmation, then the success or error message,
 * then 'Ok'. Success also toasts, and the cached lists change at once (see update-job.mutation).
 */
export function JobActionModal({
  action,
  otaJobId,
  jobName,
  onClose,
}: {
  action: JobAction;
  otaJobId: string;
  jobName: string;
  onClose: () => void;
}) {
  const cancel = useCancelJob();
  const archive = useArchiveJob();
  const mutation = action === 'cancel' ? cancel : archive;
  const text = TEXT[action];
  const [step, setStep] = useState<Step>({ kind: 'confirm' });

  const confirm = () => {
    mutation.mutate(otaJobId, {
      onSuccess: () => {
        notifications.show({ color: 'fleet', message: text.done, autoClose: TOAST_AUTO_CLOSE_MS });
        setStep({ kind: 'done', ok: true, message: text.done });
      },
      onError: (error) => setStep({ kind: 'done', ok: false, message: errorMessage(error) }),
    });
  };

  const close = () => {
    if (!mutation.isPending) onClose();
  };

  return (
    <Modal opened onClose={close} title={text.title} centered>
      <Stack gap="lg" data-testid="job-action-modal">
        {step.kind === 'confirm' ? (
          <>
            <Text>{formatMessage(text.confirm, { job: jobName })}</Text>
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={close}
                disabled={mutation.isPending}
                data-autofocus
              >
                {OTA_LABELS.keep}
              </Button>
              <Button color={text.color} onClick={confirm} loading={mutation.isPending}>
                {text.button}
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Text
              c={step.ok ? undefined : 'red'}
              role={step.ok ? 'status' : 'alert'}
              data-testid="job-action-result"
            >
              {step.message}
            </Text>
            <Group justify="flex-end">
              <Button onClick={onClose} data-autofocus>
                {OTA_LABELS.ok}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
