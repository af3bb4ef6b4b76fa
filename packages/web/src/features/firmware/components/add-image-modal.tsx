import {
  MESSAGES,
  NAME_MAX_LENGTH,
  NODE_TYPES,
  TOAST_AUTO_CLOSE_MS,
  formatMessage,
} from '@fleetdeck/contract';
import {
  Alert,
  Button,
  Collapse,
  FileInput,
  Group,
  Modal,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconChevronRight, IconFileUpload } from '@tabler/icons-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { withoutFieldError } from '../../../lib/form-errors';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { useUploadImage } from '../api/upload-image.mutation';
import { FIRMWARE_LABELS } from '../labels';
import {
  EMPTY_IMAGE_FORM,
  IMAGE_FILE_ACCEPT,
  uploadPercent,
  validateImageForm,
  type ImageForm,
  type ImageFormErrors,
  type ImageFormField,
} from '../model/image-form';
import type { ImageModeConfig } from '../model/image-modes';

const NO_ERRORS: ImageFormErrors = { fields: {}, form: null };

/**
 * A field's error for the input: its own text, or only the red border for a missing value (the
 * form-wide alert says 'Please provide all details.' once, not under every field).
 */
function fieldError(message: string | undefined): string | boolean {
  if (message === undefined) return false;
  return message === MESSAGES.provideAllDetails ? true : message;
}

/**
 * Add Image (fleet-management §2, §5; access §2 Fault screens): image name, type, under
 * 'Advanced' the firmware version and model, a fault id on fault images, and a .bin or .zip
 * file sent with a progress bar. Success toasts 'Firmware Image added successfully.' and the
 * lists refetch; a failure keeps the form and shows the server's description. Closing during
 * the upload cancels it.
 */
export function AddImageModal({
  config,
  opened,
  onClose,
}: {
  config: ImageModeConfig;
  opened: boolean;
  onClose: () => void;
}) {
  const upload = useUploadImage();
  const [form, setForm] = useState<ImageForm>(EMPTY_IMAGE_FORM);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<ImageFormErrors>(NO_ERRORS);
  const [advanced, setAdvanced] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const advancedId = useId();
  const fault = config.mode === 'fault';

  const reset = () => {
    setForm(EMPTY_IMAGE_FORM);
    setFile(null);
    setErrors(NO_ERRORS);
    setAdvanced(false);
    setProgress(null);
    upload.reset();
  };

  const close = () => {
    abort.current?.abort();
    abort.current = null;
    reset();
    onClose();
  };

  /** A change answers the last submit's complaints about that field and the form as a whole. */
  const edited = (field: ImageFormField) => {
    setErrors((current) => withoutFieldError(current, field));
    if (upload.isError) upload.reset();
  };

  const set = (field: keyof ImageForm, value: string) => {
    setForm({ ...form, [field]: value });
    edited(field);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (upload.isPending) return;
    const { ImageFieldsSchema } = await loadSchemas();
    const picked = file ? { name: file.name, size: file.size } : null;
    const checked = validateImageForm(ImageFieldsSchema, form, picked, config.mode);
    setErrors(checked.errors);
    if (checked.body === null || file === null) {
      if (checked.errors.fields.fw_version || checked.errors.fields.model) setAdvanced(true);
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    upload.mutate(
      {
        file,
        fields: checked.body,
        signal: controller.signal,
        onProgress: (loaded, total) => setProgress(uploadPercent(loaded, total)),
      },
      {
        onSuccess: () => {
          notifications.show({
            color: 'fleet',
            message: MESSAGES.firmwareImageAdded,
            autoClose: TOAST_AUTO_CLOSE_MS,
          });
          abort.current = null;
          reset();
          onClose();
        },
        onError: () => setProgress(null),
      },
    );
  };

  const uploading = upload.isPending && progress !== null;
  const cancelled = upload.isError && upload.error instanceof DOMException;

  return (
    <Modal opened={opened} onClose={close} title={config.addTitle} centered size="lg">
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="add-image-form">
        <Stack gap="md">
          {errors.form !== null && (
            <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} />}>
              {errors.form}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label={FIRMWARE_LABELS.imageName}
              name="image_name"
              required
              maxLength={NAME_MAX_LENGTH}
              autoComplete="off"
              value={form.image_name}
              error={fieldError(errors.fields.image_name)}
              onChange={(event) => set('image_name', event.currentTarget.value)}
              disabled={upload.isPending}
              data-autofocus
            />
            <Select
              label={FIRMWARE_LABELS.type}
              name="type"
              required
              placeholder={FIRMWARE_LABELS.typePlaceholder}
              data={[...NODE_TYPES]}
              value={form.type || null}
              error={fieldError(errors.fields.type)}
              onChange={(value) => set('type', value ?? '')}
              disabled={upload.isPending}
              allowDeselect={false}
            />
            {fault && (
              <TextInput
                label={FIRMWARE_LABELS.faultId}
                name="fault_id"
                required
                maxLength={NAME_MAX_LENGTH}
                autoComplete="off"
                value={form.fault_id}
                error={fieldError(errors.fields.fault_id)}
                onChange={(event) => set('fault_id', event.currentTarget.value)}
                disabled={upload.isPending}
              />
            )}
          </SimpleGrid>
          <FileInput
            label={FIRMWARE_LABELS.file}
            name="file"
            required
            accept={IMAGE_FILE_ACCEPT}
            placeholder={FIRMWARE_LABELS.filePlaceholder}
            description={FIRMWARE_LABELS.fileHint}
            leftSection={<IconFileUpload size={16} aria-hidden="true" />}
            clearable
            value={file}
            error={fieldError(errors.fields.file)}
            onChange={(value) => {
              setFile(value);
              edited('file');
            }}
            disabled={upload.isPending}
          />
          <div>
            <UnstyledButton
              type="button"
              onClick={() => setAdvanced((open) => !open)}
              aria-expanded={advanced}
              aria-controls={advancedId}
              fz="sm"
              fw={600}
              c="fleet"
            >
              <Group gap={4}>
                <IconChevronRight
                  size={16}
                  aria-hidden="true"
                  style={{
                    transform: advanced ? 'rotate(90deg)' : 'none',
                    transition: 'transform 150ms',
                  }}
                />
                {FIRMWARE_LABELS.advanced}
              </Group>
            </UnstyledButton>
            <Collapse expanded={advanced} id={advancedId}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" pt="sm">
                <TextInput
                  label={FIRMWARE_LABELS.fwVersion}
                  name="fw_version"
                  maxLength={NAME_MAX_LENGTH}
                  autoComplete="off"
                  value={form.fw_version}
                  error={fieldError(errors.fields.fw_version)}
                  onChange={(event) => set('fw_version', event.currentTarget.value)}
                  disabled={upload.isPending}
                />
                <TextInput
                  label={FIRMWARE_LABELS.model}
                  name="model"
                  maxLength={NAME_MAX_LENGTH}
                  autoComplete="off"
                  value={form.model}
                  error={fieldError(errors.fields.model)}
                  onChange={(event) => set('model', event.currentTarget.value)}
                  disabled={upload.isPending}
                />
              </SimpleGrid>
            </Collapse>
          </div>
          {uploading && (
            <Stack gap={4} data-testid="upload-progress">
              <Text size="sm" aria-live="polite">
                {progress >= 100
                  ? FIRMWARE_LABELS.saving
                  : formatMessage(FIRMWARE_LABELS.uploading, { percent: progress })}
              </Text>
              <Progress
                value={progress}
                animated={progress >= 100}
                aria-label={formatMessage(FIRMWARE_LABELS.uploading, { percent: progress })}
              />
            </Stack>
          )}
          {upload.isError && !cancelled && (
            <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} />}>
              {errorMessage(upload.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {FIRMWARE_LABELS.cancel}
            </Button>
            <Button type="submit" loading={upload.isPending}>
              {FIRMWARE_LABELS.upload}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
