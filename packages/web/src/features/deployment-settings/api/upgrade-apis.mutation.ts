import { SETTINGS_PATHS, UpgradeApisResponseSchema } from '@fleetdeck/contract';
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';

/** PUT /v1/admin/update_apigateway → what the server did (migrations applied, reload). */
export function upgradeApis() {
  return apiJson(SETTINGS_PATHS.updateApigateway, UpgradeApisResponseSchema, { method: 'PUT' });
}

export function useUpgradeApis() {
  return useMutation({ mutationFn: upgradeApis });
}
