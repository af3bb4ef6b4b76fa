import { SETTINGS_PATHS, SuccessBodySchema } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { licenseKeys } from './license-files.query';

/** Base64 of a file's bytes, as `file_content_b64` wants it. */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** PUT /v1/admin/license_file with the .pem file. */
export async function uploadLicense(file: File) {
  return apiJson(SETTINGS_PATHS.licenseFile, SuccessBodySchema, {
    method: 'PUT',
    body: { file_content_b64: await fileToBase64(file), file_name: file.name },
  });
}

export function useUploadLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadLicense,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: licenseKeys.all }),
  });
}
