import { API_PATHS, type DeploymentInfo } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { authKeys } from './auth.keys';

/** GET /v1/deployment_info: public facts the sign-in screens need (mode, sign-up, providers). */
export async function fetchDeploymentInfo(signal?: AbortSignal): Promise<DeploymentInfo> {
  const { DeploymentInfoSchema } = await loadSchemas();
  return apiJson(API_PATHS.deploymentInfo, DeploymentInfoSchema, {
    session: 'public',
    ...(signal ? { signal } : {}),
  });
}

export const deploymentInfoQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.deploymentInfo(),
    queryFn: ({ signal }) => fetchDeploymentInfo(signal),
    // Fixed for the life of a server process.
    staleTime: Infinity,
  });

export function useDeploymentInfo() {
  return useQuery(deploymentInfoQueryOptions());
}

/** Whether the deployment runs in customer mode (the `…2` endpoints, no sign-up, no social). */
export function isCustomerMode(info: DeploymentInfo | undefined): boolean {
  return info?.deployment_mode === 'customer';
}
