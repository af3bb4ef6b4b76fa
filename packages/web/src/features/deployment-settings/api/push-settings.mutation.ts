import {
  MOBILE_PUSH_INTEGRATION,
  MobilePlatformCreateResponseSchema,
  PUSH_PATHS,
  SuccessBodySchema,
  pushEventType,
  systemEntityId,
  type MobilePlatformCreateBody,
  type PushEvent,
} from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { pushKeys } from './push.keys';

/** POST (first time) or PUT /v1/admin/webhook_integration: the master switch. */
export function setPushIntegration({ enabled, exists }: { enabled: boolean; exists: boolean }) {
  return apiJson(PUSH_PATHS.webhookIntegration, SuccessBodySchema, {
    method: exists ? 'PUT' : 'POST',
    body: {
      service_name: MOBILE_PUSH_INTEGRATION,
      endpoint_name: MOBILE_PUSH_INTEGRATION,
      enabled,
    },
  });
}

/** POST (none exists for the event) or PUT /v1/admin/event_filter: one event's switch. */
export function setEventFilter({
  event,
  enabled,
  exists,
}: {
  event: PushEvent;
  enabled: boolean;
  exists: boolean;
}) {
  const eventType = pushEventType(event);
  return apiJson(PUSH_PATHS.eventFilter, SuccessBodySchema, {
    method: exists ? 'PUT' : 'POST',
    body: {
      event_type: eventType,
      entity_id: systemEntityId(eventType),
      entity_type: 'System',
      enabled,
      enabled_for_integrations: [MOBILE_PUSH_INTEGRATION],
    },
  });
}

/** POST /v1/admin/push_notification/mobile_platform → 201 with the platform's ARN. */
export function createPlatform(body: MobilePlatformCreateBody) {
  return apiJson(PUSH_PATHS.mobilePlatform, MobilePlatformCreateResponseSchema, {
    method: 'POST',
    body,
  });
}

/** DELETE /v1/admin/push_notification/mobile_platform?platform_application_arn=. */
export function deletePlatform(arn: string) {
  return apiJson(
    `${PUSH_PATHS.mobilePlatform}?platform_application_arn=${encodeURIComponent(arn)}`,
    SuccessBodySchema,
    { method: 'DELETE' },
  );
}

export function useSetPushIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPushIntegration,
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushKeys.integration() }),
  });
}

export function useSetEventFilter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setEventFilter,
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushKeys.eventFilters() }),
  });
}

export function useCreatePlatform() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPlatform,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKeys.platforms() }),
  });
}

export function useDeletePlatform() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePlatform,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKeys.platforms() }),
  });
}
