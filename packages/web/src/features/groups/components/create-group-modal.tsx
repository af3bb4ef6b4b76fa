import {
  GEO_REGIONS,
  GROUP_DESCRIPTION_MAX_LENGTH,
  MESSAGES,
  NAME_MAX_LENGTH,
  NODE_TYPES,
  TOAST_AUTO_CLOSE_MS,
  formatMessage,
  type GroupFilterField,
} from '@fleetdeck/contract';
import {
  Alert,
  Autocomplete,
  Button,
  Divider,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import { useCreateGroup } from '../api/create-group.mutation';
import { useMatchCount } from '../api/match-count.query';
import { GROUP_LABELS } from '../labels';
import {
  EMPTY_CREATE_FORM,
  createGroupBody,
  filtersToParams,
  hasErrors,
  validateCreateGroup,
  type CreateGroupErrors,
  type CreateGroupForm,
} from '../model/group-form';
import { useFormDraft } from '../../auth/use-form-draft';

/** How long the live count waits after the last keystroke (fleet-management §2). */
export const MATCH_COUNT_DEBOUNCE_MS = 400;

function MatchCount({ filterParams }: { filterParams: string }) {
  const [debounced] = useDebouncedValue(filterParams, MATCH_COUNT_DEBOUNCE_MS);
  const count = useMatchCount(debounced);
  if (filterParams === '') return null;
  let text: string;
  if (debounced !== filterParams || count.isPending) text = GROUP_LABELS.matchCounting;
  else if (count.isError)
    text = formatMessage(GROUP_LABELS.matchCountFailed, { reason: errorMessage(count.error) });
  else if (count.data === 1) text = GROUP_LABELS.matchCountOne;
  else text = formatMessage(GROUP_LABELS.matchCount, { count: count.data });
  return (
    <Text
      size="sm"
      fw={500}
      c={count.isError ? 'red' : undefined}
      aria-live="polite"
      data-testid="group-match-count"
    >
      {text}
    </Text>
  );
}

/**
 * Create Device Group (fleet-management §2, §5): name (required, ≤ 64), description (≤ 500,
 * counted), optional automatic-add filters with a live count of the nodes they match.
 * Save toasts 'Node group created successfully.' and refreshes the list; a failure shows the
 * server's description in the modal.
 */
export function CreateGroupModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateGroup();
  const [form, setForm] = useFormDraft<CreateGroupForm>('groups.create', EMPTY_CREATE_FORM);
  const [errors, setErrors] = useState<CreateGroupErrors>({});
  const [touched, setTouched] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const close = () => {
    if (create.isPending) return;
    setForm(EMPTY_CREATE_FORM);
    setErrors({});
    setTouched(false);
    create.reset();
    onClose();
  };

  const update = (next: CreateGroupForm) => {
    setForm(next);
    if (touched) setErrors(validateCreateGroup(next));
  };

  const setFilter = (field: GroupFilterField, value: string) =>
    update({ ...form, filters: { ...form.filters, [field]: value } });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateCreateGroup(form);
    setTouched(true);
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstInvalid();
      return;
    }
    create.mutate(createGroupBody(form), {
      onSuccess: () => {
        notifications.show({
          color: 'fleet',
          message: MESSAGES.groupCreated,
          autoClose: TOAST_AUTO_CLOSE_MS,
        });
        create.reset();
        setForm(EMPTY_CREATE_FORM);
        setErrors({});
        setTouched(false);
        onClose();
      },
    });
  };

  return (
    <Modal opened={opened} onClose={close} title={GROUP_LABELS.createModalTitle} centered size="lg">
      <form ref={formRef} onSubmit={submit} noValidate data-testid="create-group-form">
        <Stack gap="md">
          <TextInput
            label={GROUP_LABELS.groupName}
            name="group_name"
            required
            maxLength={NAME_MAX_LENGTH}
            autoComplete="off"
            value={form.group_name}
            error={errors.group_name}
            onChange={(event) => update({ ...form, group_name: event.currentTarget.value })}
            data-autofocus
          />
          <Textarea
            label={GROUP_LABELS.description}
            name="description"
            autosize
            minRows={2}
            maxRows={6}
            maxLength={GROUP_DESCRIPTION_MAX_LENGTH}
            value={form.description}
            error={errors.description}
            description={formatMessage(GROUP_LABELS.descriptionCounter, {
              count: form.description.length,
              max: GROUP_DESCRIPTION_MAX_LENGTH,
            })}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            onChange={(event) => update({ ...form, description: event.currentTarget.value })}
          />
          <Divider
            label={GROUP_LABELS.filtersHeading}
            labelPosition="left"
            styles={{ label: { fontSize: 'var(--mantine-font-size-sm)' } }}
          />
          <Text size="xs" c="dimmed" mt={-8}>
            {GROUP_LABELS.filtersHint}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select
              label={GROUP_LABELS.nodeType}
              name="node_type"
              data={[...NODE_TYPES]}
              clearable
              value={form.filters.node_type || null}
              onChange={(value) => setFilter('node_type', value ?? '')}
            />
            <TextInput
              label={GROUP_LABELS.nodeModel}
              name="node_model"
              maxLength={NAME_MAX_LENGTH}
              autoComplete="off"
              value={form.filters.node_model}
              onChange={(event) => setFilter('node_model', event.currentTarget.value)}
            />
            <TextInput
              label={GROUP_LABELS.nodeFwVersion}
              name="node_fw_version"
              maxLength={NAME_MAX_LENGTH}
              autoComplete="off"
              value={form.filters.node_fw_version}
              onChange={(event) => setFilter('node_fw_version', event.currentTarget.value)}
            />
            <Autocomplete
              label={GROUP_LABELS.nodeCity}
              name="node_city"
              data={[...GEO_REGIONS]}
              maxLength={NAME_MAX_LENGTH}
              autoComplete="off"
              value={form.filters.node_city}
              onChange={(value) => setFilter('node_city', value)}
            />
            <TextInput
              label={GROUP_LABELS.nodeSerial}
              name="node_serial_num"
              maxLength={NAME_MAX_LENGTH}
              autoComplete="off"
              value={form.filters.node_serial_num}
              onChange={(event) => setFilter('node_serial_num', event.currentTarget.value)}
            />
          </SimpleGrid>
          <MatchCount filterParams={filtersToParams(form.filters)} />
          {create.isError && (
            <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} />}>
              {errorMessage(create.error)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              {GROUP_LABELS.cancel}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {GROUP_LABELS.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
