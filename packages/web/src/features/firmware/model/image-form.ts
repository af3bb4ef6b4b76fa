import { MESSAGES, OTA_IMAGE_EXTENSIONS, SERVER_MESSAGES } from '@fleetdeck/contract';
import type { ImageFieldsSchema } from '@fleetdeck/contract';
import { collectFormErrors } from '../../../lib/form-errors';
import type { ImageMode } from './image-modes';

/**
 * The Add Image form (fleet-management §2, §5; access §2 Fault screens): its values, its checks
 * through the contract's ImageFieldsSchema, and the body of POST /v1/admin/otaimage/package.
 * The schema is passed in, so the screen can load zod lazily; tests pass the contract's own.
 */

export interface ImageForm {
  image_name: string;
  type: string;
  fw_version: string;
  model: string;
  /** Required on fault images, not asked for otherwise. */
  fault_id: string;
}

export const EMPTY_IMAGE_FORM: ImageForm = {
  image_name: '',
  type: '',
  fw_version: '',
  model: '',
  fault_id: '',
};

export const IMAGE_FORM_FIELDS = [
  'image_name',
  'type',
  'fw_version',
  'model',
  'fault_id',
  'file',
] as const;
export type ImageFormField = (typeof IMAGE_FORM_FIELDS)[number];

/** What the form knows of the picked file. */
export interface PickedFile {
  name: string;
  size: number;
}

/** The image's fields as POST /v1/admin/otaimage/package takes them (blank ones left out). */
export interface ImageFieldsBody {
  image_name: string;
  type: string;
  fw_version?: string;
  model?: string;
  fault_id?: string;
}

export interface ImageFormErrors {
  /** One message per field; a missing required field carries 'Please provide all details.'. */
  fields: Partial<Record<ImageFormField, string>>;
  /** 'Please provide all details.' when any required field is missing, else null. */
  form: string | null;
}

/** The accept attribute of the file picker. */
export const IMAGE_FILE_ACCEPT = OTA_IMAGE_EXTENSIONS.join(',');

/** Whether a file name ends in .bin or .zip (any case). */
export function isImageFileName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return OTA_IMAGE_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

export type ImageFieldsValidator = Pick<typeof ImageFieldsSchema, 'safeParse'>;

/** The checks of §5 Add image, with the fault id required in fault mode. */
export function validateImageForm(
  schema: ImageFieldsValidator,
  form: ImageForm,
  file: PickedFile | null,
  mode: ImageMode,
): { errors: ImageFormErrors; body: ImageFieldsBody | null } {
  const errors: ImageFormErrors = { fields: {}, form: null };
  const parsed = schema.safeParse({
    image_name: form.image_name,
    type: form.type,
    fw_version: form.fw_version,
    model: form.model,
    fault_id: mode === 'fault' ? form.fault_id : undefined,
  });
  if (!parsed.success) errors.fields = collectFormErrors(parsed.error, IMAGE_FORM_FIELDS).fields;
  if (mode === 'fault' && errors.fields.fault_id === undefined && form.fault_id.trim() === '')
    errors.fields.fault_id = MESSAGES.provideAllDetails;
  if (file === null) errors.fields.file = MESSAGES.provideAllDetails;
  else if (!isImageFileName(file.name)) errors.fields.file = SERVER_MESSAGES.invalidFileType;
  else if (file.size === 0) errors.fields.file = SERVER_MESSAGES.emptyImage;

  if (Object.values(errors.fields).includes(MESSAGES.provideAllDetails))
    errors.form = MESSAGES.provideAllDetails;
  const ok = parsed.success && Object.keys(errors.fields).length === 0;
  if (!ok) return { errors, body: null };
  const data = parsed.data;
  return {
    errors,
    body: {
      image_name: data.image_name,
      type: data.type,
      ...(data.fw_version !== undefined ? { fw_version: data.fw_version } : {}),
      ...(data.model !== undefined ? { model: data.model } : {}),
      ...(mode === 'fault' && data.fault_id !== undefined ? { fault_id: data.fault_id } : {}),
    },
  };
}

/** An upload's progress as a whole percentage (0–100); unknown totals count as 0. */
export function uploadPercent(loaded: number, total: number): number {
  if (!Number.isFinite(loaded) || !Number.isFinite(total) || total <= 0 || loaded <= 0) return 0;
  return Math.min(100, Math.floor((loaded / total) * 100));
}
