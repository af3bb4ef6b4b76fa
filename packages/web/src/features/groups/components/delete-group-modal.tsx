import { MESSAGES, formatMessage } from '@fleetdeck/contract';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { useDeleteGroup } from '../api/delete-group.mutation';
import { GROUP_LABELS } from '../labels';

type Step = { kind: 'confirm' } | { kind: 'done'; ok: boolean; message: string };

/**
 * Delete a node group (fleet-management §4): confirmation, then the success or error message,
 * then 'Ok', which closes the modal and returns to the list.
 */
export function DeleteGroupModal({
  opened,
  groupId,
  groupName,
  onCancel,
  onFinished,
}: {
  opened: boolean;
  groupId: string;
  groupName: string;
  onCancel: () => void;
  /** 'Ok' after the result: back to the list. */
  onFinished: () => void;
}) {
  const remove = useDeleteGroup();
  const [step, setStep] = useState<Step>({ kind: 'confirm' });

  const confirm = () => {
    remove.mutate(groupId, {
      onSuccess: () => setStep({ kind: 'done', ok: true, message: MESSAGES.groupDeleted }),
      onError: (error) => setStep({ kind: 'done', ok: false, message: errorMessage(error) }),
    });
  };

  const close = () => {
    if (remove.isPending) return;
    if (step.kind === 'done') onFinished();
    else onCancel();
  };

  return (
    <Modal opened={opened} onClose={close} title={GROUP_LABELS.deleteTitle} centered>
      <Stack gap="lg" data-testid="delete-group-modal">
        {step.kind === 'confirm' ? (
          <>
            <Text>{formatMessage(GROUP_LABELS.deleteConfirm, { group: groupName })}</Text>
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={onCancel}
                disabled={remove.isPending}
                data-autofocus
              >
                {GROUP_LABELS.cancel}
              </Button>
              <Button color="red" onClick={confirm} loading={remove.isPending}>
                {GROUP_LABELS.deleteConfirmButton}
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Text
              c={step.ok ? undefined : 'red'}
              role={step.ok ? 'status' : 'alert'}
              data-testid="delete-group-result"
            >
              {step.message}
            </Text>
            <Group justify="flex-end">
              <Button onClick={onFinished} data-autofocus>
                {GROUP_LABELS.ok}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
