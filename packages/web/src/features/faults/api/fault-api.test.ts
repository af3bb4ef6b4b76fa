import { afterEach, describe, expect, it, vi } from 'vitest';
import { isApiError } from '../../../lib/api-error';
import { faultBreakdownPath } from './fault-breakdown.query';
import { faultCataloguePath, fetchFaultCatalogue } from './fault-catalogue.query';
import { faultDistributionPath, fetchFaultDistribution } from './fault-distribution.query';
import { faultHistoryApiPath, fetchFaultHistory } from './fault-history.query';
import { fetchFaultImages } from './fault-images.query';
import { faultNodesPath, fetchFaultNodes } from './fault-nodes.query';
import { faultKeys } from './faults.keys';

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

const failure = (description: string, code = 1) => ({
  status: 'failure',
  description,
  error_code: code,
});

afterEach(() => vi.unstubAllGlobals());

describe('fault API paths', () => {
  it('asks for a catalogue by its name', () => {
    expect(faultCataloguePath('ref')).toBe('/v1/admin/common_custom_data?name=refrigerator_faults');
  });

  it('asks the fault device list by node type, code, search and page', () => {
    expect(faultNodesPath({ type: 'washer', code: '5', num_records: 10 })).toBe(
      '/v1/admin/faults/nodes?type=Washing+Machine&code=5&num_records=10',
    );
    expect(
      faultNodesPath({ type: 'ac', code: '5', search: 'E5', start_id: 'n-2', num_records: 25 }),
    ).toBe(
      '/v1/admin/faults/nodes?type=Air+Conditioner&code=5&search=E5&start_id=n-2&num_records=25',
    );
  });

  it('asks the breakdown, the distribution and the history with their parameters', () => {
    expect(faultBreakdownPath('ref', '5')).toBe(
      '/v1/admin/faults/breakdown?type=Refrigerator&code=5',
    );
    expect(faultDistributionPath('ac')).toBe(
      '/insights/v1/param/byvalue/count?dimensionname=ACFault&datatype=2&limit=1000',
    );
    expect(faultHistoryApiPath({ num_records: 5 })).toBe('/v1/admin/faults/history?num_records=5');
    expect(faultHistoryApiPath({ search: 'abc', start_id: 'x', num_records: 15 })).toBe(
      '/v1/admin/faults/history?search=abc&start_id=x&num_records=15',
    );
  });
});

describe('fetchFaultCatalogue', () => {
  it("reads the definitions from data[0].value, as the spec's dashboard does", async () => {
    const value = [{ err_code: '5', disp_code: 'E5', description: 'Defrost sensor open' }];
    answer(200, {
      name: 'refrigerator_faults',
      value,
      data: [{ name: 'refrigerator_faults', value }],
    });
    await expect(fetchFaultCatalogue('ref')).resolves.toEqual(value);
  });

  it('reads a 404 as an empty catalogue and passes other failures on', async () => {
    answer(404, failure('Not found'));
    await expect(fetchFaultCatalogue('ac')).resolves.toEqual([]);
    answer(500, failure('Database unavailable'));
    const error: unknown = await fetchFaultCatalogue('ac').catch((caught: unknown) => caught);
    expect(isApiError(error) && error.description).toBe('Database unavailable');
  });
});

describe('the list calls', () => {
  it('read a 404 as an empty page', async () => {
    answer(404, failure('Nodes not found.'));
    await expect(fetchFaultHistory({ num_records: 5 })).resolves.toEqual({ nodes: [], total: 0 });
    await expect(fetchFaultNodes({ type: 'ac', num_records: 10 })).resolves.toEqual({
      count: 0,
      nodes: [],
    });
    await expect(fetchFaultDistribution('ac')).resolves.toEqual(new Map());
  });

  it('turn the distribution into counts by code', async () => {
    answer(200, {
      distribution: [
        { value: '5', count: 7 },
        { value: '2', count: 1 },
      ],
      totalnodes: 8,
    });
    const counts = await fetchFaultDistribution('ref');
    expect(counts.get('5')).toBe(7);
    expect(counts.get('9')).toBeUndefined();
  });
});

describe('fetchFaultImages', () => {
  const image = (id: string, type: string, faultId: string | undefined, uploaded: number) => ({
    ota_image_id: id,
    image_name: `Fix ${id}`,
    type,
    model: 'M',
    fw_version: '2.1.1',
    upload_timestamp: uploaded,
    image_url: `/v1/blobs/${id}`,
    file_name: `${id}.bin`,
    file_size: 1,
    file_md5: 'x',
    file_sha256: 'y',
    signature: 's',
    package: false,
    archived: false,
    ...(faultId !== undefined ? { fault_id: faultId } : {}),
  });

  it("keeps the type's images for the code, by error or display code, newest first", async () => {
    const urls = answer(200, {
      ota_images: [
        image('a', 'Refrigerator', '5', 100),
        image('b', 'Refrigerator', 'e5', 300),
        image('c', 'Air Conditioner', '5', 400),
        image('d', 'Refrigerator', '6', 500),
        image('e', 'Refrigerator', undefined, 600),
      ],
      total: 5,
    });
    const images = await fetchFaultImages('ref', ['5', 'E5']);
    expect(images.map((found) => found.ota_image_id)).toEqual(['b', 'a']);
    expect(urls[0]).toBe('/v1/admin/otaimage?num_records=100&archived=false&fault_image=true');
  });
});

describe('faultKeys', () => {
  it('puts device pages, breakdowns and distributions under one key for refreshes', () => {
    const current = faultKeys.current();
    expect(faultKeys.nodes({ type: 'ac', num_records: 10 }).slice(0, 2)).toEqual(current);
    expect(faultKeys.breakdown('ac', '5').slice(0, 2)).toEqual(current);
    expect(faultKeys.distribution('ac').slice(0, 2)).toEqual(current);
  });
});
