import { LicenseFilesSchema, SETTINGS_PATHS } from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';

export const licenseKeys = {
  all: ['deployment-settings', 'license'] as const,
};

/** GET /v1/admin/license_file: the current licence. */
export function fetchLicenseFiles(signal?: AbortSignal) {
  return apiJson(SETTINGS_PATHS.licenseFile, LicenseFilesSchema, signal ? { signal } : {});
}

export function useLicenseFiles() {
  return useQuery({
    queryKey: licenseKeys.all,
    queryFn: ({ signal }) => fetchLicenseFiles(signal),
  });
}
