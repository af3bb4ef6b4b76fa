import { ALL_NODES_GROUP_ID, FORCE_PUSH_DEFAULT, groupDisplayName } from '@fleetdeck/contract';
import type { CreateJobBody, CreateJobBodySchema } from '@fleetdeck/contract';

/**
 * The Start OTA form (fleet-management §2, §4, §5): a job name, Groups or Nodes (exclusive),
 * Force Push on by default. Checked with the contract's CreateJobBodySchema, passed in so the
 * screen can load zod lazily. Pure, so unit-tested.
 */

/** Groups, nodes, or (fault images only) the nodes that report the image's fault now. */
export type OtaTarget = 'groups' | 'nodes' | 'fault';

export interface StartOtaForm {
  jobName: string;
  target: OtaTarget;
  groups: readonly string[];
  nodes: readonly string[];
  forcePush: boolean;
}

export const EMPTY_START_OTA_FORM: StartOtaForm = {
  jobName: '',
  target: 'groups',
  groups: [],
  nodes: [],
  forcePush: FORCE_PUSH_DEFAULT,
};

export interface StartOtaErrors {
  jobName?: string;
  targets?: string;
}

export interface CreateJobRequest {
  forcePush: boolean;
  body: CreateJobBody;
}

export type CreateJobValidator = Pick<typeof CreateJobBodySchema, 'safeParse'>;

/** The empty form; a fault image starts on "the nodes with this fault". */
export function emptyStartOtaForm(faultImage: boolean): StartOtaForm {
  return faultImage ? { ...EMPTY_START_OTA_FORM, target: 'fault' } : EMPTY_START_OTA_FORM;
}

/** Only the chosen side is sent: a switch from Groups to Nodes drops the picked groups. */
export function startOtaBody(form: StartOtaForm, otaImageId: string) {
  const targets =
    form.target === 'groups'
      ? { groups: [...form.groups] }
      : form.target === 'nodes'
        ? { nodes: [...form.nodes] }
        : { fault_nodes: true };
  return { ota_job_name: form.jobName, ota_image_id: otaImageId, ...targets };
}

/** 'Please provide job name.' and 'Please select atleast one group or one node.' (§5). */
export function validateStartOta(
  schema: CreateJobValidator,
  form: StartOtaForm,
  otaImageId: string,
): { errors: StartOtaErrors; request: CreateJobRequest | null } {
  const parsed = schema.safeParse(startOtaBody(form, otaImageId));
  if (parsed.success)
    return { errors: {}, request: { forcePush: form.forcePush, body: parsed.data } };
  const errors: StartOtaErrors = {};
  for (const issue of parsed.error.issues) {
    const head = issue.path[0];
    if (head === 'ota_job_name') errors.jobName ??= issue.message;
    else errors.targets ??= issue.message;
  }
  return { errors, request: null };
}

/** What the user touched: the job name, or the target (the Groups/Nodes choice, a pick, a search). */
export type StartOtaEdit = 'jobName' | 'targets';

/**
 * The errors once the user has touched `edit`: its message goes (the submit will check again),
 * the other stays. The same object when nothing changes.
 */
export function errorsAfterEdit(errors: StartOtaErrors, edit: StartOtaEdit): StartOtaErrors {
  if (errors[edit] === undefined) return errors;
  const next = { ...errors };
  delete next[edit];
  return next;
}

export interface GroupOption {
  value: string;
  label: string;
}

/**
 * The group picker's options: FFFF-FFFF first as 'All' (present even if the list lacks it),
 * then every group by name, with its id where the name is blank or shared.
 */
export function groupOptions(
  groups: readonly { group_id: string; group_name: string }[],
): GroupOption[] {
  const counts = new Map<string, number>();
  for (const group of groups) counts.set(group.group_name, (counts.get(group.group_name) ?? 0) + 1);
  const others: GroupOption[] = [];
  for (const group of groups) {
    if (group.group_id === ALL_NODES_GROUP_ID) continue;
    const name = group.group_name.trim();
    const label =
      name === ''
        ? group.group_id
        : (counts.get(group.group_name) ?? 0) > 1
          ? `${name} (${group.group_id})`
          : name;
    others.push({ value: group.group_id, label });
  }
  return [
    { value: ALL_NODES_GROUP_ID, label: groupDisplayName(ALL_NODES_GROUP_ID, 'picker') },
    ...others,
  ];
}

/** The node picker's options: the lookup's ids, with the already picked ones kept first. */
export function nodeOptions(found: readonly string[], picked: readonly string[]): string[] {
  const seen = new Set(picked);
  return [...picked, ...found.filter((id) => !seen.has(id))];
}
