import {
  EventFilterListSchema,
  MOBILE_PUSH_INTEGRATION,
  MobilePlatformListSchema,
  PUSH_ERROR_CODES,
  PUSH_PATHS,
  WebhookIntegrationListSchema,
  type MobilePlatform,
} from '@fleetdeck/contract';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { pushKeys } from './push.keys';

/** GET /v1/admin/webhook_integration for mobile_push_notification. */
export function fetchPushIntegration(signal?: AbortSignal) {
  const query = `service_name=${MOBILE_PUSH_INTEGRATION}&endpoint_name=${MOBILE_PUSH_INTEGRATION}`;
  return apiJson(
    `${PUSH_PATHS.webhookIntegration}?${query}`,
    WebhookIntegrationListSchema,
    signal ? { signal } : {},
  );
}

export function usePushIntegration() {
  return useQuery({
    queryKey: pushKeys.integration(),
    queryFn: ({ signal }) => fetchPushIntegration(signal),
  });
}

/** GET /v1/admin/event_filter?entity_type=System: the filters of every event at once. */
export function fetchEventFilters(signal?: AbortSignal) {
  return apiJson(
    `${PUSH_PATHS.eventFilter}?entity_type=System`,
    EventFilterListSchema,
    signal ? { signal } : {},
  );
}

export function useEventFilters() {
  return useQuery({
    queryKey: pushKeys.eventFilters(),
    queryFn: ({ signal }) => fetchEventFilters(signal),
  });
}

/**
 * GET /v1/admin/push_notification/mobile_platform. A 400 "No platform applications found" means
 * none exists (access §4), so it reads as an empty list.
 */
export async function fetchPlatforms(signal?: AbortSignal): Promise<MobilePlatform[]> {
  try {
    const list = await apiJson(
      PUSH_PATHS.mobilePlatform,
      MobilePlatformListSchema,
      signal ? { signal } : {},
    );
    return list.platform_applications;
  } catch (error) {
    if (
      isApiError(error) &&
      error.status === 400 &&
      error.error_code === PUSH_ERROR_CODES.noPlatforms
    )
      return [];
    if (isApiError(error) && error.status === 400 && error.error_code === null) return [];
    throw error;
  }
}

export function usePlatforms() {
  return useQuery({
    queryKey: pushKeys.platforms(),
    queryFn: ({ signal }) => fetchPlatforms(signal),
  });
}
