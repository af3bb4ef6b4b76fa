import {
  API_PATHS,
  CreateUserResponseSchema,
  CustomDataMapSchema,
  type AddUserForm,
} from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { userKeys } from './users.keys';

/** The profile kept as the user's personal custom data (fleet-management §3 User). */
export function personalData(form: Omit<AddUserForm, 'user_name' | 'roles'>) {
  return {
    personal: {
      value: {
        first_name: form.first_name,
        last_name: form.last_name,
        city: form.city,
        phone_number: form.phone_number,
        geo_region: form.geo_region,
        registration_date: form.registration_date,
      },
    },
  };
}

/** PUT /v1/admin/custom_data?user_email=: saves custom-data entries. */
export function saveCustomData(userName: string, data: Record<string, { value: unknown }>) {
  return apiJson(
    `${API_PATHS.adminCustomData}?user_email=${encodeURIComponent(userName)}`,
    CustomDataMapSchema,
    { method: 'PUT', body: data },
  );
}

/**
 * POST /v1/admin/user2 (201 with user_id, the invitation goes out), then the personal custom
 * data through PUT admin/custom_data, as the spec's call list has it (fleet-management §7).
 */
export async function createUser(form: AddUserForm) {
  const created = await apiJson(API_PATHS.adminUser2, CreateUserResponseSchema, {
    method: 'POST',
    body: form,
  });
  await saveCustomData(form.user_name, personalData(form));
  return created;
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.list() }),
  });
}
