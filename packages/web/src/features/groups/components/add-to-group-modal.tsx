import {
  ALL_NODES_GROUP_ID,
  MESSAGES,
  TOAST_AUTO_CLOSE_MS,
  formatMessage,
} from '@fleetdeck/contract';
import { Alert, Button, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { useAllGroups } from '../api/group-list.query';
import { useUpdateGroup } from '../api/update-group.mutation';
import { GROUP_LABELS } from '../labels';
import { CREATE_GROUP_PATH, groupDisplayName } from '../model/group-form';

/**
 * Add to node groups (fleet-management §2, §5, §8): pick a group for the selected nodes.
 * No choice → 'You will need to select a group to add nodes!'; no groups at all → the spec's
 * "There isn't any Node Group created…" with a way to create one. Success toasts
 * 'Successfully added nodes to {group}' and clears the selection.
 */
export function AddToGroupModal({
  nodeIds,
  onAdded,
  onClose,
}: {
  nodeIds: readonly string[];
  onAdded: () => void;
  onClose: () => void;
}) {
  const groups = useAllGroups(true);
  const update = useUpdateGroup();
  const [groupId, setGroupId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const choices = (groups.data ?? []).filter((group) => group.group_id !== ALL_NODES_GROUP_ID);
  const chosen = choices.find((group) => group.group_id === groupId);

  const submit = () => {
    if (chosen === undefined) {
      setProblem(MESSAGES.selectGroupToAdd);
      return;
    }
    setProblem(null);
    update.mutate(
      { group_id: chosen.group_id, operation: 'add', nodes: nodeIds },
      {
        onSuccess: () => {
          notifications.show({
            color: 'fleet',
            message: formatMessage(MESSAGES.addedNodesToGroup, {
              group: groupDisplayName(chosen),
            }),
            autoClose: TOAST_AUTO_CLOSE_MS,
          });
          onAdded();
          onClose();
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  const none = groups.isSuccess && choices.length === 0;

  return (
    <Modal
      opened
      onClose={() => {
        if (!update.isPending) onClose();
      }}
      title={GROUP_LABELS.addModalTitle}
      centered
    >
      <Stack gap="md" data-testid="add-to-group-modal">
        <Text size="sm" c="dimmed">
          {nodeIds.length === 1
            ? GROUP_LABELS.addingNode
            : formatMessage(GROUP_LABELS.addingNodes, { count: nodeIds.length })}
        </Text>
        {groups.isPending && <Loader size="sm" aria-label={GROUP_LABELS.groupPlaceholder} />}
        {groups.isError && (
          <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle size={18} />}>
            <Group justify="space-between" gap="sm">
              <Text size="sm">{errorMessage(groups.error)}</Text>
              <Button size="xs" variant="white" color="red" onClick={() => void groups.refetch()}>
                {GROUP_LABELS.tryAgain}
              </Button>
            </Group>
          </Alert>
        )}
        {none && (
          <Stack gap="sm" align="flex-start">
            <Text data-testid="no-groups">{MESSAGES.noGroupsCreated}</Text>
            <Button component={Link} to={CREATE_GROUP_PATH} variant="light" onClick={onClose}>
              {GROUP_LABELS.goCreateGroup}
            </Button>
          </Stack>
        )}
        {groups.isSuccess && !none && (
          <Select
            label={GROUP_LABELS.group}
            placeholder={GROUP_LABELS.groupPlaceholder}
            searchable
            data={choices.map((group) => ({
              value: group.group_id,
              label: `${groupDisplayName(group)} (${group.group_id})`,
            }))}
            value={groupId}
            onChange={(value) => {
              setGroupId(value);
              setProblem(null);
            }}
            comboboxProps={{ withinPortal: true }}
            data-autofocus
          />
        )}
        {problem !== null && (
          <Text c="red" size="sm" role="alert">
            {problem}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={update.isPending}>
            {GROUP_LABELS.cancel}
          </Button>
          {!none && (
            <Button onClick={submit} loading={update.isPending} disabled={!groups.isSuccess}>
              {GROUP_LABELS.add}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
