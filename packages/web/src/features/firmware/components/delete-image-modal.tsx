import { SERVER_MESSAGES, formatMessage } from '@fleetdeck/contract';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { useDeleteImage } from '../api/delete-image.mutation';
import { FIRMWARE_LABELS } from '../labels';

interface Outcome {
  ok: boolean;
  message: string;
}

/**
 * Delete an image (fleet-management §4): confirmation, then the server's answer (its reason
 * when an active job uses the image), then 'Ok', which hands back to the screen.
 */
export function DeleteImageModal({
  image,
  onCancel,
  onFinished,
}: {
  image: { ota_image_id: string; image_name: string };
  onCancel: () => void;
  /** 'Ok' after the result; `deleted` tells whether the image is gone. */
  onFinished: (deleted: boolean) => void;
}) {
  const remove = useDeleteImage();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const confirm = () =>
    remove.mutate(image.ota_image_id, {
      onSuccess: (body) =>
        setOutcome({ ok: true, message: body.description || SERVER_MESSAGES.imageDeleted }),
      onError: (error) => setOutcome({ ok: false, message: errorMessage(error) }),
    });

  const close = () => {
    if (remove.isPending) return;
    if (outcome === null) onCancel();
    else onFinished(outcome.ok);
  };

  return (
    <Modal opened onClose={close} title={FIRMWARE_LABELS.deleteTitle} centered>
      <Stack gap="lg" data-testid="delete-image-modal">
        {outcome === null ? (
          <Text>{formatMessage(FIRMWARE_LABELS.deleteConfirm, { image: image.image_name })}</Text>
        ) : (
          <Alert
            color={outcome.ok ? 'fleet' : 'red'}
            variant="light"
            role={outcome.ok ? 'status' : 'alert'}
            icon={
              outcome.ok ? (
                <IconCircleCheck size={18} aria-hidden="true" />
              ) : (
                <IconAlertCircle size={18} aria-hidden="true" />
              )
            }
            data-testid="delete-image-result"
          >
            {outcome.message}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          {outcome === null ? (
            <>
              <Button
                variant="default"
                onClick={onCancel}
                disabled={remove.isPending}
                data-autofocus
              >
                {FIRMWARE_LABELS.cancel}
              </Button>
              <Button color="red" onClick={confirm} loading={remove.isPending}>
                {FIRMWARE_LABELS.deleteConfirmButton}
              </Button>
            </>
          ) : (
            <Button onClick={() => onFinished(outcome.ok)} data-autofocus>
              {FIRMWARE_LABELS.ok}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
