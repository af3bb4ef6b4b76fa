import {
  ConnectionPayloadSchema,
  INGEST_SUFFIXES,
  NodeConfigPayloadSchema,
  NODE_TYPES,
  ParamsPayloadSchema,
  parseNodeTopic,
  UserMappingPayloadSchema,
} from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { APPLIANCE_PROFILES, initialParams } from './appliance-profiles.js';
import { nodeSpecs } from './node-spec.js';
import {
  CONFIG_VERSION,
  connectionPayload,
  nodeConfigPayload,
  publishTopic,
  userMappingPayload,
} from './payloads.js';
import { Rng } from './prng.js';

const specs = nodeSpecs(21, 0, 60, new Set());

describe('node payloads', () => {
  it('send a config the contract accepts, with the info the admin filters read', () => {
    for (const type of NODE_TYPES) {
      const spec = specs.find((candidate) => candidate.type === type);
      if (!spec) throw new Error(`no ${type} in the sample`);
      const profile = APPLIANCE_PROFILES[type];
      const config = nodeConfigPayload(spec, profile);
      const parsed = NodeConfigPayloadSchema.parse(config);
      expect(parsed).toMatchObject({
        node_id: spec.node_id,
        config_version: CONFIG_VERSION,
        info: {
          name: spec.name,
          fw_version: spec.fw_version,
          type,
          model: spec.model,
          project_name: profile.projectName,
          platform: profile.platform,
        },
      });
      const devices = parsed.devices as Array<{ name: string; params: Array<{ name: string }> }>;
      expect(devices[0]?.name).toBe(profile.device.name);
      expect(devices[0]?.params.map((param) => param.name)).toContain(profile.faultParam);
    }
  });

  it('send params documents the contract accepts', () => {
    for (const type of NODE_TYPES) {
      const document = initialParams(APPLIANCE_PROFILES[type], new Rng(4));
      expect(ParamsPayloadSchema.parse(document)).toEqual(document);
    }
  });

  it('send birth, will and user mapping payloads the contract accepts', () => {
    expect(ConnectionPayloadSchema.parse(connectionPayload(true, 3, 1_700_000_000_000))).toEqual({
      connected: true,
      session: 3,
      timestamp: 1_700_000_000_000,
    });
    expect(ConnectionPayloadSchema.safeParse(connectionPayload(false, 4, Date.now())).success).toBe(
      true,
    );
    expect(
      UserMappingPayloadSchema.parse(userMappingPayload('A1B2C3D4E5F6', 'u-1', 'secret')),
    ).toEqual({
      node_id: 'A1B2C3D4E5F6',
      user_id: 'u-1',
      secret_key: 'secret',
    });
  });
});

describe('publish topics', () => {
  it('round-trip through parseNodeTopic in both the plain and the basic-ingest form', () => {
    for (const suffix of INGEST_SUFFIXES) {
      for (const basic of [false, true]) {
        const topic = publishTopic('A1B2C3D4E5F6', suffix, basic);
        expect(parseNodeTopic(topic)).toEqual({ nodeId: 'A1B2C3D4E5F6', suffix });
      }
    }
  });

  it('use the $aws/rules form for basic-ingest nodes and never for the connection topic', () => {
    expect(publishTopic('N1', 'params/local', true)).toBe(
      '$aws/rules/esp_set_params/node/N1/params/local',
    );
    expect(publishTopic('N1', 'config', true)).toBe('$aws/rules/esp_node_config/node/N1/config');
    expect(publishTopic('N1', 'params/local', false)).toBe('node/N1/params/local');
    expect(publishTopic('N1', 'connection', true)).toBe('node/N1/connection');
  });
});
