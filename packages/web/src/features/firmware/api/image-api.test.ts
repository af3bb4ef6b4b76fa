import type { OtaImage } from '@fleetdeck/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isApiError } from '../../../lib/api-error';
import { firmwareKeys } from './firmware.keys';
import { fetchImage } from './image-details.query';
import { fetchImageList, imageListPath } from './image-list.query';

const image = (id: string): OtaImage => ({
  ota_image_id: id,
  image_name: `Image ${id}`,
  type: 'Air Conditioner',
  model: 'AC-X1',
  fw_version: '1.2.0',
  upload_timestamp: 1_750_000_000,
  image_url: `/v1/blobs/${id}`,
  file_name: `${id}.bin`,
  file_size: 2048,
  file_md5: 'd41d8cd98f00b204e9800998ecf8427e',
  file_sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  signature: 'sig',
  package: false,
  archived: false,
});

/** Answers every fetch with this status and body, and records the URLs asked for. */
function answer(status: number, body: unknown) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      urls.push(url);
      return Promise.resolve(new Response(JSON.stringify(body), { status }));
    }),
  );
  return urls;
}

afterEach(() => vi.unstubAllGlobals());

describe('imageListPath', () => {
  it('asks for one kind of image, archived or not, with the search when there is one', () => {
    expect(
      imageListPath({ num_records: 10, archived: false, fault_image: false, contains: undefined }),
    ).toBe('/v1/admin/otaimage?num_records=10&archived=false&fault_image=false');
    expect(
      imageListPath({
        start_id: 'img-11',
        num_records: 5,
        contains: 'AC & fridge',
        archived: true,
        fault_image: true,
      }),
    ).toBe(
      '/v1/admin/otaimage?start_id=img-11&num_records=5&contains=AC+%26+fridge&archived=true&fault_image=true',
    );
  });
});

describe('image api', () => {
  it('reads a 404 from the list as an empty list', async () => {
    answer(404, { status: 'failure', description: 'No images', error_code: 104015 });
    await expect(
      fetchImageList({ num_records: 10, archived: false, fault_image: false }),
    ).resolves.toEqual({ ota_images: [], total: 0 });
  });

  it('passes other failures on with the server description', async () => {
    answer(500, { status: 'failure', description: 'Disk full', error_code: 1 });
    const failure: unknown = await fetchImageList({
      num_records: 10,
      archived: false,
      fault_image: false,
    }).catch((error: unknown) => error);
    expect(isApiError(failure) && failure.description).toBe('Disk full');
  });

  it('finds one image by id, and calls an empty answer not found', async () => {
    const urls = answer(200, { ota_images: [image('a1')], total: 1 });
    await expect(fetchImage('a1')).resolves.toMatchObject({ ota_image_id: 'a1' });
    expect(urls).toEqual(['/v1/admin/otaimage?ota_image_id=a1']);
    answer(200, { ota_images: [], total: 0 });
    const failure: unknown = await fetchImage('zz').catch((error: unknown) => error);
    expect(isApiError(failure) && failure.status).toBe(404);
  });

  it('nests every list and detail key under the feature', () => {
    const key = firmwareKeys.list({ num_records: 10, archived: true, fault_image: false });
    expect(key.slice(0, 2)).toEqual([...firmwareKeys.lists()]);
    expect(firmwareKeys.detail('a1').slice(0, 2)).toEqual([...firmwareKeys.details()]);
  });
});
