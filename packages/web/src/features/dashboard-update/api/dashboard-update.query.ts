import { SETTINGS_PATHS } from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { BUILD_VERSION } from '../build-version';

/** How often an open dashboard asks whether a newer build is served (also on focus). */
export const UPDATE_CHECK_INTERVAL_MS = 5 * 60_000;

export const dashboardUpdateKeys = {
  check: (version: string) => ['dashboard-update', version] as const,
};

/** GET /v1/admin/dashboard/update?current_version=: the served build and whether it differs. */
export async function fetchDashboardUpdate(currentVersion: string, signal?: AbortSignal) {
  const { DashboardUpdateCheckSchema } = await import('./dashboard-update-schemas');
  return apiJson(
    `${SETTINGS_PATHS.dashboardUpdate}?current_version=${encodeURIComponent(currentVersion)}`,
    DashboardUpdateCheckSchema,
    signal ? { signal } : {},
  );
}

export function useDashboardUpdateCheck(currentVersion: string = BUILD_VERSION) {
  return useQuery({
    queryKey: dashboardUpdateKeys.check(currentVersion),
    queryFn: ({ signal }) => fetchDashboardUpdate(currentVersion, signal),
    // The dev server has no build to compare with.
    enabled: currentVersion !== 'dev',
    refetchInterval: UPDATE_CHECK_INTERVAL_MS,
    refetchOnWindowFocus: 'always',
    retry: false,
    staleTime: 30_000,
  });
}
