import { CSRF_HEADER, CSRF_HEADER_VALUE, MESSAGES, OTA_PATHS } from '@fleetdeck/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client';
import { ApiError, NETWORK_ERROR_STATUS, toApiError } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import type { ImageFieldsBody } from '../model/image-form';
import { firmwareKeys } from './firmware.keys';
import { otaUrl } from '../../ota/api/ota-url';

export interface UploadImageRequest {
  file: File;
  /** The image's fields; `file_path` is filled in after the upload. */
  fields: ImageFieldsBody;
  /** Called with bytes sent and the total while the file travels. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * PUT the raw file to the signed upload URL with XMLHttpRequest (fetch cannot report upload
 * progress). The signature is the authorisation: to this server the browser sends its cookies
 * anyway, so the CSRF header goes along; to an object store (S3) it sends neither. A 413 and any
 * other failure reject with the server's description.
 */
export function putFile(
  url: string,
  file: File,
  onProgress?: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    if (new URL(url, window.location.href).origin === window.location.origin)
      xhr.setRequestHeader(CSRF_HEADER, CSRF_HEADER_VALUE);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) =>
      onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(file.size, file.size);
        resolve();
      } else reject(toApiError(xhr.status, parseJson(xhr.responseText)));
    };
    xhr.onerror = () =>
      reject(new ApiError(NETWORK_ERROR_STATUS, MESSAGES.somethingWentWrong, null));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/**
 * Add Image (fleet-management §7): GET …/package/upload?file_name= for a signed URL, PUT the
 * file there with progress, then POST …/package `{file_path, image_name, type, …}`.
 */
export async function uploadImage({ file, fields, onProgress, signal }: UploadImageRequest) {
  const { PackageUploadResponseSchema, CreateImageResponseSchema } = await loadSchemas();
  const options = signal ? { signal } : {};
  const target = await apiJson(
    otaUrl(OTA_PATHS.packageUpload, { file_name: file.name }),
    PackageUploadResponseSchema,
    options,
  );
  await putFile(target.url, file, onProgress, signal);
  const body = { ...fields, file_path: target.file_path };
  return apiJson(OTA_PATHS.package, CreateImageResponseSchema, {
    ...options,
    method: 'POST',
    body,
  });
}

export function useUploadImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadImage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: firmwareKeys.lists() }),
  });
}
