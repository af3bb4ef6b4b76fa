import {
  MESSAGES,
  NAME_MAX_LENGTH,
  NODE_LOOKUP_DELAY_MS,
  TOAST_AUTO_CLOSE_MS,
  formatMessage,
} from '@fleetdeck/contract';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Radio,
  Stack,
  Text,
  TextInput,
  type OptionsFilter,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCircleCheck, IconRocket } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { useAllGroups } from '../../groups/api/group-list.query';
import { useAdminNodes } from '../../nodes/api/admin-nodes.query';
import { normaliseSearch } from '../../nodes/model/search';
import { useCreateJob } from '../api/create-job.mutation';
import { FIRMWARE_LABELS } from '../labels';
import { jobDetailsPath } from '../model/image-modes';
import {
  emptyStartOtaForm,
  errorsAfterEdit,
  groupOptions,
  nodeOptions,
  validateStartOta,
  type StartOtaEdit,
  type StartOtaErrors,
  type StartOtaForm,
} from '../model/start-ota-form';

/** The image a job is started for. */
export interface OtaImageRef {
  ota_image_id: string;
  image_name: string;
  /** Set for a fault image: its job can target the nodes that report this fault. */
  fault_id?: string;
}

interface Started {
  ota_job_id: string;
  total_count: number;
}

/** The server already filtered the nodes by prefix; the picker shows what it got. */
const keepAll: OptionsFilter = ({ options }) => options;

/**
 * The pickers' error sits between the label and the input: below it, the open dropdown would
 * cover it.
 */
const ERROR_ABOVE_INPUT: ('label' | 'description' | 'error' | 'input')[] = [
  'label',
  'description',
  'error',
  'input',
];

function NodePicker({
  enabled,
  picked,
  error,
  onChange,
  onSearch,
}: {
  enabled: boolean;
  picked: readonly string[];
  error: string | undefined;
  onChange: (nodes: string[]) => void;
  /** The user typed in the search box. */
  onSearch: () => void;
}) {
  const [search, setSearch] = useState('');
  // The lookup waits 1 s after the last keystroke (fleet-management §2, §9).
  const [debounced] = useDebouncedValue(normaliseSearch(search) ?? '', NODE_LOOKUP_DELAY_MS);
  const lookup = useAdminNodes(
    { num_records: 10, ...(debounced !== '' ? { search: debounced } : {}) },
    { enabled },
  );
  const waiting = (normaliseSearch(search) ?? '') !== debounced || lookup.isFetching;
  const found = lookup.data?.node_info.map((node) => node.node_id) ?? [];
  let nothing: string = FIRMWARE_LABELS.nodesNone;
  if (waiting) nothing = FIRMWARE_LABELS.nodesSearching;
  else if (lookup.isError) nothing = errorMessage(lookup.error);
  return (
    <MultiSelect
      label={FIRMWARE_LABELS.nodePicker}
      placeholder={picked.length === 0 ? FIRMWARE_LABELS.nodePickerPlaceholder : undefined}
      description={FIRMWARE_LABELS.nodeLookupHint}
      data={nodeOptions(found, picked)}
      value={[...picked]}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={(value) => {
        setSearch(value);
        onSearch();
      }}
      filter={keepAll}
      nothingFoundMessage={nothing}
      rightSection={waiting ? <Loader size={14} /> : undefined}
      error={error}
      inputWrapperOrder={ERROR_ABOVE_INPUT}
      clearable
      data-testid="ota-node-picker"
    />
  );
}

/**
 * Start OTA (fleet-management §2, §4, §5): a job name, Groups or Nodes (one or the other),
 * Force Push on by default. Groups are picked from every group (FFFF-FFFF as 'All'); nodes are
 * found by id prefix a second after typing stops. With no node in the fleet the modal says
 * "You don't have any claimed nodes to start OTA!". Success toasts 'OTA started successfully.'
 * and offers the job's details. Other features open it for any image.
 */
export function StartOtaModal({
  image,
  onClose,
}: {
  /** The image to push; the modal is open while this is set. */
  image: OtaImageRef | null;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const create = useCreateJob();
  const faultId = image?.fault_id;
  const [form, setForm] = useState<StartOtaForm>(() => emptyStartOtaForm(faultId !== undefined));
  const [errors, setErrors] = useState<StartOtaErrors>({});
  const [started, setStarted] = useState<Started | null>(null);
  const opened = image !== null;
  const fleet = useAdminNodes({ num_records: 1 }, { enabled: opened });
  const noNodes = fleet.data?.total === 0;
  const groups = useAllGroups(opened && form.target === 'groups' && !noNodes);

  const close = () => {
    if (create.isPending) return;
    setForm(emptyStartOtaForm(faultId !== undefined));
    setErrors({});
    setStarted(null);
    create.reset();
    onClose();
  };

  /** A change answers the last submit's complaint about what was changed. */
  const edited = (edit: StartOtaEdit) => setErrors((current) => errorsAfterEdit(current, edit));

  const update = (next: StartOtaForm, edit?: StartOtaEdit) => {
    setForm(next);
    if (edit !== undefined) edited(edit);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (image === null || create.isPending) return;
    const { CreateJobBodySchema } = await loadSchemas();
    const checked = validateStartOta(CreateJobBodySchema, form, image.ota_image_id);
    setErrors(checked.errors);
    if (checked.request === null) return;
    create.mutate(checked.request, {
      onSuccess: (body) => {
        notifications.show({
          color: 'fleet',
          message: MESSAGES.otaStarted,
          autoClose: TOAST_AUTO_CLOSE_MS,
        });
        setStarted({ ota_job_id: body.ota_job_id, total_count: body.total_count });
      },
    });
  };

  const viewJob = (jobId: string) => {
    close();
    void navigate(jobDetailsPath(jobId));
  };

  return (
    <Modal opened={opened} onClose={close} title={FIRMWARE_LABELS.startOtaTitle} centered size="lg">
      {image !== null && (
        <Text size="sm" c="dimmed" mb="md">
          {formatMessage(FIRMWARE_LABELS.startOtaFor, { image: image.image_name })}
        </Text>
      )}
      {started !== null && (
        <Stack gap="lg" data-testid="start-ota-result">
          <Alert color="fleet" variant="light" role="status" icon={<IconCircleCheck size={18} />}>
            <Text size="sm" fw={600}>
              {MESSAGES.otaStarted}
            </Text>
            <Text size="sm">
              {formatMessage(
                started.total_count === 1
                  ? FIRMWARE_LABELS.jobStartedOne
                  : FIRMWARE_LABELS.jobStarted,
                { job: form.jobName.trim(), count: started.total_count },
              )}
            </Text>
          </Alert>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {FIRMWARE_LABELS.ok}
            </Button>
            <Button onClick={() => viewJob(started.ota_job_id)} data-autofocus>
              {FIRMWARE_LABELS.viewJob}
            </Button>
          </Group>
        </Stack>
      )}
      {started === null && noNodes && (
        <Stack gap="lg">
          <Alert
            color="yellow"
            variant="light"
            role="alert"
            icon={<IconAlertCircle size={18} />}
            data-testid="ota-no-nodes"
          >
            {MESSAGES.noClaimedNodesForOta}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={close} data-autofocus>
              {FIRMWARE_LABELS.ok}
            </Button>
          </Group>
        </Stack>
      )}
      {started === null && !noNodes && (
        <form onSubmit={(event) => void submit(event)} noValidate data-testid="start-ota-form">
          <Stack gap="md">
            <TextInput
              label={FIRMWARE_LABELS.jobName}
              name="ota_job_name"
              required
              maxLength={NAME_MAX_LENGTH}
              autoComplete="off"
              value={form.jobName}
              error={errors.jobName}
              onChange={(event) =>
                update({ ...form, jobName: event.currentTarget.value }, 'jobName')
              }
              data-autofocus
            />
            <Radio.Group
              label={FIRMWARE_LABELS.target}
              name="ota_target"
              value={form.target}
              onChange={(value) => update({ ...form, target: value }, 'targets')}
            >
              <Group gap="lg" mt={6}>
                {faultId !== undefined && (
                  <Radio
                    value="fault"
                    label={formatMessage(FIRMWARE_LABELS.faultTarget, { code: faultId })}
                  />
                )}
                <Radio value="groups" label={FIRMWARE_LABELS.groups} />
                <Radio value="nodes" label={FIRMWARE_LABELS.nodes} />
              </Group>
            </Radio.Group>
            {form.target === 'fault' ? (
              <Text size="sm" c="dimmed" data-testid="ota-fault-target">
                {formatMessage(FIRMWARE_LABELS.faultTargetHint, { code: faultId ?? '' })}
              </Text>
            ) : form.target === 'groups' ? (
              <MultiSelect
                label={FIRMWARE_LABELS.groupPicker}
                placeholder={
                  form.groups.length === 0 ? FIRMWARE_LABELS.groupPickerPlaceholder : undefined
                }
                data={groupOptions(groups.data ?? [])}
                value={[...form.groups]}
                onChange={(value) => update({ ...form, groups: value }, 'targets')}
                onSearchChange={() => edited('targets')}
                searchable
                clearable
                nothingFoundMessage={
                  groups.isPending ? FIRMWARE_LABELS.groupsLoading : FIRMWARE_LABELS.noGroups
                }
                rightSection={groups.isFetching ? <Loader size={14} /> : undefined}
                error={errors.targets ?? (groups.isError ? errorMessage(groups.error) : undefined)}
                inputWrapperOrder={ERROR_ABOVE_INPUT}
                data-testid="ota-group-picker"
              />
            ) : (
              <NodePicker
                enabled={opened && !noNodes}
                picked={form.nodes}
                error={errors.targets}
                onChange={(nodes) => update({ ...form, nodes }, 'targets')}
                onSearch={() => edited('targets')}
              />
            )}
            <Checkbox
              label={FIRMWARE_LABELS.forcePush}
              description={FIRMWARE_LABELS.forcePushHint}
              name="force_push"
              checked={form.forcePush}
              onChange={(event) => update({ ...form, forcePush: event.currentTarget.checked })}
            />
            {create.isError && (
              <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} />}>
                {errorMessage(create.error)}
              </Alert>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={create.isPending}>
                {FIRMWARE_LABELS.cancel}
              </Button>
              <Button
                type="submit"
                loading={create.isPending}
                leftSection={<IconRocket size={16} aria-hidden="true" />}
              >
                {FIRMWARE_LABELS.start}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
