import {
  API_PATHS,
  SuccessBodySchema,
  TemplateResponseSchema,
  type TemplateBody,
} from '@fleetdeck/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { userKeys } from './users.keys';

/** GET /v1/admin/message_template?template_type=: the template, types and placeholders. */
export function fetchTemplate(type: string, signal?: AbortSignal) {
  return apiJson(
    `${API_PATHS.messageTemplate}?template_type=${encodeURIComponent(type)}`,
    TemplateResponseSchema,
    signal ? { signal } : {},
  );
}

export function useMessageTemplate(type: string) {
  return useQuery({
    queryKey: userKeys.template(type),
    queryFn: ({ signal }) => fetchTemplate(type, signal),
    refetchOnWindowFocus: false,
  });
}

/** POST /v1/admin/message_template. */
export function saveTemplate(body: TemplateBody) {
  return apiJson(API_PATHS.messageTemplate, SuccessBodySchema, { method: 'POST', body });
}

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveTemplate,
    onSuccess: (_answer, body) =>
      queryClient.invalidateQueries({ queryKey: userKeys.template(body.template_type) }),
  });
}
