import { ImageFieldsSchema, MESSAGES, SERVER_MESSAGES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_IMAGE_FORM,
  IMAGE_FILE_ACCEPT,
  isImageFileName,
  uploadPercent,
  validateImageForm,
  type ImageForm,
} from './image-form';

const file = { name: 'fw-1.2.bin', size: 1024 };
const form = (patch: Partial<ImageForm>): ImageForm => ({
  ...EMPTY_IMAGE_FORM,
  image_name: 'AC main 1.2',
  type: 'Air Conditioner',
  ...patch,
});

describe('validateImageForm', () => {
  it('asks for all details when name, type or file are missing', () => {
    const { errors, body } = validateImageForm(
      ImageFieldsSchema,
      EMPTY_IMAGE_FORM,
      null,
      'firmware',
    );
    expect(body).toBeNull();
    expect(errors.form).toBe(MESSAGES.provideAllDetails);
    expect(errors.fields).toEqual({
      image_name: MESSAGES.provideAllDetails,
      type: MESSAGES.provideAllDetails,
      file: MESSAGES.provideAllDetails,
    });
  });

  it("allows letters, digits, spaces and ! * ' ( ) . _ - in the name only", () => {
    const ok = validateImageForm(
      ImageFieldsSchema,
      form({ image_name: "Rel_1.2-b (final)!*'" }),
      file,
      'firmware',
    );
    expect(ok.errors.fields).toEqual({});
    for (const bad of ['fw/1', 'fw#1', 'ünï', 'a;b']) {
      const { errors } = validateImageForm(
        ImageFieldsSchema,
        form({ image_name: bad }),
        file,
        'firmware',
      );
      expect(errors.fields.image_name).toBe(MESSAGES.invalidImageName);
      expect(errors.form).toBeNull();
    }
  });

  it('limits name, type, version and model to 64 characters', () => {
    const long = 'x'.repeat(65);
    const { errors } = validateImageForm(
      ImageFieldsSchema,
      form({ image_name: long, type: long, fw_version: long, model: long }),
      file,
      'firmware',
    );
    expect(errors.fields).toEqual({
      image_name: SERVER_MESSAGES.fieldTooLong,
      type: SERVER_MESSAGES.fieldTooLong,
      fw_version: SERVER_MESSAGES.fieldTooLong,
      model: SERVER_MESSAGES.fieldTooLong,
    });
    const edge = validateImageForm(
      ImageFieldsSchema,
      form({ model: 'm'.repeat(64) }),
      file,
      'firmware',
    );
    expect(edge.errors.fields).toEqual({});
  });

  it('takes only .bin and .zip files that are not empty', () => {
    const zip = validateImageForm(
      ImageFieldsSchema,
      form({}),
      { name: 'PKG.ZIP', size: 9 },
      'firmware',
    );
    expect(zip.errors.fields).toEqual({});
    const hex = validateImageForm(
      ImageFieldsSchema,
      form({}),
      { name: 'fw.hex', size: 9 },
      'firmware',
    );
    expect(hex.errors.fields.file).toBe(SERVER_MESSAGES.invalidFileType);
    const empty = validateImageForm(
      ImageFieldsSchema,
      form({}),
      { name: 'fw.bin', size: 0 },
      'firmware',
    );
    expect(empty.errors.fields.file).toBe(SERVER_MESSAGES.emptyImage);
  });

  it('builds a trimmed body without blank optional fields', () => {
    const { body } = validateImageForm(
      ImageFieldsSchema,
      form({ image_name: '  AC 1.2 ', fw_version: ' 1.2.0 ', model: '  ', fault_id: 'E4' }),
      file,
      'firmware',
    );
    expect(body).toEqual({ image_name: 'AC 1.2', type: 'Air Conditioner', fw_version: '1.2.0' });
  });

  it('requires a fault id on fault images and sends it', () => {
    const missing = validateImageForm(ImageFieldsSchema, form({ fault_id: ' ' }), file, 'fault');
    expect(missing.errors.fields.fault_id).toBe(MESSAGES.provideAllDetails);
    expect(missing.errors.form).toBe(MESSAGES.provideAllDetails);
    const { body } = validateImageForm(
      ImageFieldsSchema,
      form({ fault_id: ' E4 ' }),
      file,
      'fault',
    );
    expect(body).toEqual({ image_name: 'AC main 1.2', type: 'Air Conditioner', fault_id: 'E4' });
  });
});

describe('image files', () => {
  it('accepts .bin and .zip names in any case, not bare extensions', () => {
    expect(IMAGE_FILE_ACCEPT).toBe('.bin,.zip');
    expect(isImageFileName('a.bin')).toBe(true);
    expect(isImageFileName('A.Zip')).toBe(true);
    expect(isImageFileName('.bin')).toBe(false);
    expect(isImageFileName('a.bin.txt')).toBe(false);
  });

  it('reports upload progress in whole percent', () => {
    expect(uploadPercent(0, 100)).toBe(0);
    expect(uploadPercent(333, 1000)).toBe(33);
    expect(uploadPercent(1000, 1000)).toBe(100);
    expect(uploadPercent(5, 0)).toBe(0);
    expect(uploadPercent(2000, 1000)).toBe(100);
  });
});
