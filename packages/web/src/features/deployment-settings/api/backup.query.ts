import { API_PATHS, MESSAGES, type AppClientBackup } from '@fleetdeck/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { identityKeys, poolUrl } from './identity.keys';

/**
 * GET /v1/admin/deployment_settings/cognito_appclient → the stored backup, or null when the
 * server says 'No cognito app client backup found' (access §8).
 */
export async function fetchAppClientBackup(
  emailMobileUserpool: boolean,
  signal?: AbortSignal,
): Promise<AppClientBackup | null> {
  const { AppClientBackupSchema } = await loadSchemas();
  try {
    return await apiJson(
      poolUrl(API_PATHS.appClientBackup, emailMobileUserpool),
      AppClientBackupSchema,
      signal ? { signal } : {},
    );
  } catch (error) {
    if (isApiError(error) && error.description === MESSAGES.noCognitoBackup) return null;
    throw error;
  }
}

export function useAppClientBackup(emailMobileUserpool: boolean) {
  return useQuery({
    queryKey: identityKeys.backup(emailMobileUserpool),
    queryFn: ({ signal }) => fetchAppClientBackup(emailMobileUserpool, signal),
  });
}

/** PUT …/backup/cognito_appclient (take) or …/restore/cognito_appclient (put it back). */
export async function runAppClientBackup(request: {
  emailMobileUserpool: boolean;
  action: 'backup' | 'restore';
}) {
  const { SuccessBodySchema } = await loadSchemas();
  const path =
    request.action === 'backup' ? API_PATHS.appClientBackupTake : API_PATHS.appClientBackupRestore;
  return apiJson(poolUrl(path, request.emailMobileUserpool), SuccessBodySchema, {
    method: 'PUT',
  });
}

export function useRunAppClientBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAppClientBackup,
    onSuccess: (_data, request) =>
      queryClient.invalidateQueries({ queryKey: identityKeys.pool(request.emailMobileUserpool) }),
  });
}
