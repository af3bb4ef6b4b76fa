import { describe, expect, it } from 'vitest';
import { adminNodesPath } from './admin-nodes.query';
import { nodeKeys } from './nodes.keys';

describe('adminNodesPath', () => {
  it('puts paging and filters in the query string and leaves out empty ones', () => {
    expect(
      adminNodesPath({
        num_records: 10,
        start_id: 'node-011',
        node_status: 'online',
        type: 'Washing Machine',
        search: undefined,
        city: '',
      }),
    ).toBe(
      '/v1/admin/nodes?start_id=node-011&num_records=10&node_status=online&type=Washing+Machine',
    );
  });

  it("asks for the caller's own nodes, with details, for users without the fleet permission", () => {
    expect(adminNodesPath({ num_records: 10, type: 'Refrigerator', own: true })).toBe(
      '/v1/user/nodes?num_records=10&type=Refrigerator&node_details=true',
    );
    expect(adminNodesPath({ num_records: 10, own: false })).toBe('/v1/admin/nodes?num_records=10');
  });

  it('encodes what users type', () => {
    expect(adminNodesPath({ num_records: 5, city: 'São Paulo & co' })).toBe(
      '/v1/admin/nodes?num_records=5&city=S%C3%A3o+Paulo+%26+co',
    );
  });
});

describe('nodeKeys', () => {
  it('puts every page under the lists key, so one prefix reaches them all', () => {
    const key = nodeKeys.list({ num_records: 10, type: 'Refrigerator' });
    expect(key.slice(0, 2)).toEqual([...nodeKeys.lists()]);
  });
});
