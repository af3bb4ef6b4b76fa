import { describe, expect, it } from 'vitest';
import {
  EMPTY_FILTERS,
  createGroupBody,
  filtersToParams,
  groupDetailsPath,
  groupDisplayName,
  groupQueryDisplay,
  groupQueryFromFilters,
  groupTypeLabel,
  hasAnyFilter,
  hasErrors,
  normaliseGroupId,
  validateCreateGroup,
} from './group-form';

describe('filtersToParams', () => {
  it('is empty when no filter is set, blanks included', () => {
    expect(filtersToParams(EMPTY_FILTERS)).toBe('');
    expect(filtersToParams({ node_model: '   ', node_city: '' })).toBe('');
    expect(hasAnyFilter({ node_model: '  ' })).toBe(false);
  });

  it('keeps the contract order, trims, and encodes spaces', () => {
    expect(
      filtersToParams({ node_city: ' Pune ', node_type: 'Air Conditioner', node_model: '' }),
    ).toBe('node_type=Air+Conditioner&node_city=Pune');
    expect(hasAnyFilter({ node_serial_num: 'SN1' })).toBe(true);
  });

  it('encodes characters that would break the query', () => {
    expect(filtersToParams({ node_model: 'A&B=1' })).toBe('node_model=A%26B%3D1');
  });
});

describe('group query display', () => {
  it('joins set filters as name:value with &&', () => {
    expect(groupQueryFromFilters({ node_type: 'Air Conditioner', node_city: 'Pune' })).toBe(
      'node_type:Air Conditioner&&node_city:Pune',
    );
  });

  it("prefers the server's group_query, else builds it, else a dash for static groups", () => {
    expect(groupQueryDisplay({ group_query: 'node_model:AC-1', filters: {} })).toBe(
      'node_model:AC-1',
    );
    expect(groupQueryDisplay({ group_query: '', filters: { node_fw_version: '1.0.0' } })).toBe(
      'node_fw_version:1.0.0',
    );
    expect(groupQueryDisplay({ group_query: '  ', filters: {} })).toBe('—');
  });

  it('names the type and the all-nodes group', () => {
    expect(groupTypeLabel(true)).toBe('Automatic');
    expect(groupTypeLabel(false)).toBe('Static');
    expect(groupDisplayName({ group_id: 'FFFF-FFFF', group_name: '' })).toBe('All');
    expect(groupDisplayName({ group_id: 'A1B2-C3D4', group_name: 'Pune ACs' })).toBe('Pune ACs');
  });
});

describe('validateCreateGroup', () => {
  it('requires a non-blank name', () => {
    expect(validateCreateGroup({ group_name: '', description: '' })).toEqual({
      group_name: 'Please provide group name.',
    });
    expect(validateCreateGroup({ group_name: '   ', description: '' }).group_name).toBe(
      'Please provide group name.',
    );
  });

  it('limits the name to 64 and the description to 500 characters', () => {
    expect(validateCreateGroup({ group_name: 'x'.repeat(64), description: '' })).toEqual({});
    expect(validateCreateGroup({ group_name: 'x'.repeat(65), description: '' }).group_name).toBe(
      'Group name can have at most 64 characters.',
    );
    expect(hasErrors(validateCreateGroup({ group_name: 'a', description: 'd'.repeat(500) }))).toBe(
      false,
    );
    expect(validateCreateGroup({ group_name: 'a', description: 'd'.repeat(501) }).description).toBe(
      'Description can have at most 500 characters.',
    );
  });
});

describe('createGroupBody', () => {
  it('trims, and leaves out a blank description and unset filters', () => {
    expect(
      createGroupBody({
        group_name: '  Pune ACs ',
        description: '  ',
        filters: { ...EMPTY_FILTERS, node_type: 'Air Conditioner', node_city: ' Pune' },
      }),
    ).toEqual({ group_name: 'Pune ACs', node_type: 'Air Conditioner', node_city: 'Pune' });
  });

  it('keeps a description', () => {
    expect(
      createGroupBody({ group_name: 'g', description: ' Lab units ', filters: EMPTY_FILTERS }),
    ).toEqual({ group_name: 'g', description: 'Lab units' });
  });
});

describe('group id search', () => {
  it('ignores whitespace and builds an encoded details path', () => {
    expect(normaliseGroupId('   ')).toBeUndefined();
    expect(normaliseGroupId(' A1B2-C3D4 ')).toBe('A1B2-C3D4');
    expect(groupDetailsPath('A1B2-C3D4')).toBe('/home/node-groups/A1B2-C3D4');
    expect(groupDetailsPath('a/b')).toBe('/home/node-groups/a%2Fb');
  });
});
