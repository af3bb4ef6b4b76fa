import {
  ALL_NODES_GROUP_ID,
  GROUP_DESCRIPTION_MAX_LENGTH,
  GROUP_FILTER_FIELDS,
  NAME_MAX_LENGTH,
  type GroupFilterField,
} from '@fleetdeck/contract';
import { GROUP_LABELS } from '../labels';

/**
 * Pure rules of the device-groups screens (fleet-management §3, §5): the create form's checks,
 * its filters as query parameters, and how a group's query and type are shown. Unit-tested.
 */

/** The automatic-add filters as the form holds them (every field a string, '' for unset). */
export type GroupFilterValues = Record<GroupFilterField, string>;

export interface CreateGroupForm {
  group_name: string;
  description: string;
  filters: GroupFilterValues;
}

export const EMPTY_FILTERS: GroupFilterValues = {
  node_type: '',
  node_model: '',
  node_fw_version: '',
  node_city: '',
  node_serial_num: '',
};

export const EMPTY_CREATE_FORM: CreateGroupForm = {
  group_name: '',
  description: '',
  filters: EMPTY_FILTERS,
};

/** The filters that are set, trimmed, in the contract's order; blank ones are left out. */
export function setFilters(
  filters: Partial<Record<GroupFilterField, string | undefined>>,
): [GroupFilterField, string][] {
  const out: [GroupFilterField, string][] = [];
  for (const field of GROUP_FILTER_FIELDS) {
    const value = filters[field]?.trim();
    if (value) out.push([field, value]);
  }
  return out;
}

/** Whether any automatic-add filter is set (the live count is asked only then). */
export function hasAnyFilter(filters: Partial<Record<GroupFilterField, string | undefined>>) {
  return setFilters(filters).length > 0;
}

/** The query string of GET /v1/admin/node_group/match_count (fixed order, blanks left out). */
export function filtersToParams(
  filters: Partial<Record<GroupFilterField, string | undefined>>,
): string {
  return new URLSearchParams(setFilters(filters)).toString();
}

/** A group's filters in the spec's display form: `name:value` joined with `&&` (§3). */
export function groupQueryFromFilters(
  filters: Partial<Record<GroupFilterField, string | undefined>>,
): string {
  return setFilters(filters)
    .map(([field, value]) => `${field}:${value}`)
    .join('&&');
}

/** What the details screen shows as the query: the server's, else built from the filters. */
export function groupQueryDisplay(group: {
  group_query: string;
  filters?: Partial<Record<GroupFilterField, string | undefined>>;
}): string {
  const query = group.group_query.trim() || groupQueryFromFilters(group.filters ?? {});
  return query === '' ? GROUP_LABELS.noQuery : query;
}

/** Automatic groups gather nodes by their filters; static groups only hold what was added. */
export function groupTypeLabel(isAutomatic: boolean): string {
  return isAutomatic ? GROUP_LABELS.typeAutomatic : GROUP_LABELS.typeStatic;
}

/** The name to show: FFFF-FFFF is the all-nodes pseudo group, shown as 'All' (§2). */
export function groupDisplayName(group: { group_id: string; group_name: string }): string {
  if (group.group_id === ALL_NODES_GROUP_ID && group.group_name.trim() === '')
    return GROUP_LABELS.allGroupName;
  return group.group_name;
}

export interface CreateGroupErrors {
  group_name?: string;
  description?: string;
}

/** The create form's checks (§5): name required and non-blank, ≤ 64; description ≤ 500. */
export function validateCreateGroup(form: Pick<CreateGroupForm, 'group_name' | 'description'>) {
  const errors: CreateGroupErrors = {};
  const name = form.group_name.trim();
  if (name === '') errors.group_name = GROUP_LABELS.nameRequired;
  else if (name.length > NAME_MAX_LENGTH) errors.group_name = GROUP_LABELS.nameTooLong;
  if (form.description.trim().length > GROUP_DESCRIPTION_MAX_LENGTH)
    errors.description = GROUP_LABELS.descriptionTooLong;
  return errors;
}

export function hasErrors(errors: CreateGroupErrors): boolean {
  return errors.group_name !== undefined || errors.description !== undefined;
}

/** The POST /v1/admin/node_group body: trimmed, blank optional fields left out. */
export interface CreateGroupRequest {
  group_name: string;
  description?: string;
  node_type?: string;
  node_model?: string;
  node_fw_version?: string;
  node_city?: string;
  node_serial_num?: string;
}

export function createGroupBody(form: CreateGroupForm): CreateGroupRequest {
  const body: CreateGroupRequest = { group_name: form.group_name.trim() };
  const description = form.description.trim();
  if (description !== '') body.description = description;
  for (const [field, value] of setFilters(form.filters)) body[field] = value;
  return body;
}

/** A searched group id, trimmed; undefined when blank (whitespace is ignored). */
export function normaliseGroupId(text: string): string | undefined {
  const id = text.trim();
  return id === '' ? undefined : id;
}

/** Where a group's details are (both /home/node-groups/{id} and /home/group-details/{id} work). */
export function groupDetailsPath(groupId: string): string {
  return `/home/node-groups/${encodeURIComponent(groupId)}`;
}

export const GROUPS_PATH = '/home/node-groups/';
/** The list with the create modal open (the add-to-group modal's "Create a group" link). */
export const CREATE_GROUP_PATH = '/home/node-groups/?create=1';
