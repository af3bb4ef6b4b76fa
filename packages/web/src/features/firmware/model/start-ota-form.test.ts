import { CreateJobBodySchema, MESSAGES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_START_OTA_FORM,
  emptyStartOtaForm,
  errorsAfterEdit,
  groupOptions,
  nodeOptions,
  validateStartOta,
  type StartOtaForm,
} from './start-ota-form';

const form = (patch: Partial<StartOtaForm>): StartOtaForm => ({
  ...EMPTY_START_OTA_FORM,
  ...patch,
});

describe('validateStartOta', () => {
  it('starts with Groups chosen and Force Push on', () => {
    expect(EMPTY_START_OTA_FORM.target).toBe('groups');
    expect(EMPTY_START_OTA_FORM.forcePush).toBe(true);
  });

  it('asks for a job name and a target, with the spec messages', () => {
    const { errors, request } = validateStartOta(
      CreateJobBodySchema,
      form({ jobName: '  ' }),
      'img1',
    );
    expect(request).toBeNull();
    expect(errors.jobName).toBe(MESSAGES.provideJobName);
    expect(errors.targets).toBe(MESSAGES.selectGroupOrNode);
  });

  it('does not count the groups picked before switching to Nodes', () => {
    const { errors } = validateStartOta(
      CreateJobBodySchema,
      form({ jobName: 'June rollout', target: 'nodes', groups: ['FFFF-FFFF'] }),
      'img1',
    );
    expect(errors).toEqual({ targets: MESSAGES.selectGroupOrNode });
  });

  it('sends only the chosen side, trimmed, with force push apart', () => {
    const { errors, request } = validateStartOta(
      CreateJobBodySchema,
      form({
        jobName: ' June rollout ',
        target: 'nodes',
        groups: ['G1'],
        nodes: ['NODE-1', 'NODE-2'],
        forcePush: false,
      }),
      'img1',
    );
    expect(errors).toEqual({});
    expect(request).toEqual({
      forcePush: false,
      body: { ota_job_name: 'June rollout', ota_image_id: 'img1', nodes: ['NODE-1', 'NODE-2'] },
    });
  });

  it('starts a fault image on the devices reporting its fault, and sends only that', () => {
    expect(emptyStartOtaForm(true).target).toBe('fault');
    expect(emptyStartOtaForm(false).target).toBe('groups');
    const { errors, request } = validateStartOta(
      CreateJobBodySchema,
      { ...emptyStartOtaForm(true), jobName: 'Fix E5', groups: ['G1'], nodes: ['N1'] },
      'img1',
    );
    expect(errors).toEqual({});
    expect(request?.body).toEqual({
      ota_job_name: 'Fix E5',
      ota_image_id: 'img1',
      fault_nodes: true,
    });
  });

  it('accepts the all-nodes group', () => {
    const { request } = validateStartOta(
      CreateJobBodySchema,
      form({ jobName: 'All', groups: ['FFFF-FFFF'] }),
      'img1',
    );
    expect(request?.body.groups).toEqual(['FFFF-FFFF']);
    expect(request?.body.nodes).toBeUndefined();
  });
});

describe('groupOptions', () => {
  it('puts FFFF-FFFF first as All, once, and names the rest', () => {
    expect(
      groupOptions([
        { group_id: 'A1', group_name: 'Pune ACs' },
        { group_id: 'FFFF-FFFF', group_name: '' },
        { group_id: 'B2', group_name: ' ' },
      ]),
    ).toEqual([
      { value: 'FFFF-FFFF', label: 'All' },
      { value: 'A1', label: 'Pune ACs' },
      { value: 'B2', label: 'B2' },
    ]);
  });

  it('adds the all-nodes group when the list lacks it and tells same-named groups apart', () => {
    expect(
      groupOptions([
        { group_id: 'A1', group_name: 'Fridges' },
        { group_id: 'A2', group_name: 'Fridges' },
      ]),
    ).toEqual([
      { value: 'FFFF-FFFF', label: 'All' },
      { value: 'A1', label: 'Fridges (A1)' },
      { value: 'A2', label: 'Fridges (A2)' },
    ]);
  });
});

describe('nodeOptions', () => {
  it('keeps picked nodes and adds found ones without repeats', () => {
    expect(nodeOptions(['N2', 'N3'], ['N1', 'N2'])).toEqual(['N1', 'N2', 'N3']);
    expect(nodeOptions([], [])).toEqual([]);
  });
});

describe('errorsAfterEdit', () => {
  const submitted = { jobName: MESSAGES.provideJobName, targets: MESSAGES.selectGroupOrNode };

  it('drops the target error when the target is touched and keeps the job name error', () => {
    expect(errorsAfterEdit(submitted, 'targets')).toEqual({ jobName: MESSAGES.provideJobName });
  });

  it('drops the job name error when the name is touched and keeps the target error', () => {
    expect(errorsAfterEdit(submitted, 'jobName')).toEqual({ targets: MESSAGES.selectGroupOrNode });
  });

  it('returns the same errors when the touched part had none', () => {
    const only = { jobName: MESSAGES.provideJobName };
    expect(errorsAfterEdit(only, 'targets')).toBe(only);
  });
});
