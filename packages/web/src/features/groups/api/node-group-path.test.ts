import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { isNoGroupsError } from './group-list.query';
import { groupKeys } from './groups.keys';
import { MATCH_COUNT_PATH, nodeGroupUrl } from './node-group-path';

describe('nodeGroupUrl', () => {
  it('leaves out unset values and keeps the given order', () => {
    expect(nodeGroupUrl({ start_id: undefined, num_records: 10 })).toBe(
      '/v1/admin/node_group?num_records=10',
    );
    expect(
      nodeGroupUrl({
        group_id: 'A1B2-C3D4',
        start_id: 'n-5',
        num_records: 5,
        node_details: 'true',
      }),
    ).toBe('/v1/admin/node_group?group_id=A1B2-C3D4&start_id=n-5&num_records=5&node_details=true');
    expect(nodeGroupUrl({})).toBe('/v1/admin/node_group');
    expect(nodeGroupUrl({ node_city: 'Pune' }, MATCH_COUNT_PATH)).toBe(
      '/v1/admin/node_group/match_count?node_city=Pune',
    );
  });
});

describe('groups api helpers', () => {
  it('reads a 404 from the list as "no groups yet"', () => {
    expect(isNoGroupsError(new ApiError(404, 'Please create a Node Group', null))).toBe(true);
    expect(isNoGroupsError(new ApiError(500, 'boom', null))).toBe(false);
    expect(isNoGroupsError(new Error('x'))).toBe(false);
  });

  it('nests every key under the feature, details under their group', () => {
    expect(groupKeys.list({ num_records: 10 }).slice(0, 2)).toEqual(groupKeys.lists());
    expect(groupKeys.allGroups().slice(0, 2)).toEqual(groupKeys.lists());
    expect(groupKeys.detail({ group_id: 'G', num_records: 5 }).slice(0, 3)).toEqual(
      groupKeys.detailsOf('G'),
    );
  });
});
