import { API_PATHS, type DeploymentInfo } from '@fleetdeck/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, checkContract } from '../../../lib/api-client';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { authKeys } from './auth.keys';

/** GET /v1/deployment_info: public facts the sign-in screens need (mode, sign-up, providers). */
export async function fetchDeploymentInfo(signal?: AbortSignal): Promise<DeploymentInfo> {
  // The request leaves at once, the schemas it is checked with load beside it.
  const [payload, { DeploymentInfoSchema }] = await Promise.all([
    apiRequest(API_PATHS.deploymentInfo, { session: 'public', ...(signal ? { signal } : {}) }),
    loadSchemas(),
  ]);
  return checkContract(API_PATHS.deploymentInfo, DeploymentInfoSchema, payload);
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
