import { SETTINGS_PATHS } from '@fleetdeck/contract';
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';

/** PUT /v1/admin/dashboard/update {version}: the server acknowledges the move to its build. */
export async function acknowledgeDashboardUpdate(version: string) {
  const { SuccessBodySchema } = await import('./dashboard-update-schemas');
  return apiJson(SETTINGS_PATHS.dashboardUpdate, SuccessBodySchema, {
    method: 'PUT',
    body: { version },
  });
}

export function useAcknowledgeDashboardUpdate() {
  return useMutation({ mutationFn: acknowledgeDashboardUpdate });
}
