import { API_PATHS } from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { identityKeys, poolUrl } from './identity.keys';

/** GET /v1/admin/rainmaker_deployment_details?email_mobile_userpool= (read-only facts). */
export async function fetchDeploymentDetails(emailMobileUserpool: boolean, signal?: AbortSignal) {
  const { DeploymentDetailsSchema } = await loadSchemas();
  return apiJson(
    poolUrl(API_PATHS.deploymentDetails, emailMobileUserpool),
    DeploymentDetailsSchema,
    signal ? { signal } : {},
  );
}

export function useDeploymentDetails(emailMobileUserpool: boolean) {
  return useQuery({
    queryKey: identityKeys.details(emailMobileUserpool),
    queryFn: ({ signal }) => fetchDeploymentDetails(emailMobileUserpool, signal),
  });
}
