import {
  GEO_REGIONS,
  NODE_TYPES,
  RegisterNodesBodySchema,
  SERIAL_TAG_KEY,
} from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { APPLIANCE_PROFILES } from './appliance-profiles.js';
import {
  cityOf,
  isClaimCandidate,
  nodeSpecAt,
  nodeSpecs,
  ownerSlot,
  toRegistration,
  usesBasicIngest,
} from './node-spec.js';

describe('node specs', () => {
  it('are the same for the same seed, whatever the fleet size', () => {
    const small = nodeSpecs(7, 0, 10, new Set());
    const large = nodeSpecs(7, 0, 1000, new Set());
    expect(large.slice(0, 10)).toEqual(small);
    expect(nodeSpecs(7, 0, 10, new Set())).toEqual(small);
  });

  it('differ between seeds', () => {
    const a = nodeSpecs(1, 0, 20, new Set()).map((spec) => spec.node_id);
    const b = nodeSpecs(2, 0, 20, new Set()).map((spec) => spec.node_id);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
  });

  it('use unique 12-hex-digit MAC-style node ids', () => {
    const ids = nodeSpecs(3, 0, 5000, new Set()).map((spec) => spec.node_id);
    for (const id of ids) expect(id).toMatch(/^[0-9A-F]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draw again when an id is already taken', () => {
    const first = nodeSpecAt(5, 0, new Set());
    const again = nodeSpecAt(5, 0, new Set([first.node_id]));
    expect(again.node_id).not.toBe(first.node_id);
    expect(again.type).toBe(first.type);
  });

  it('put the location tag first and the serial tag second', () => {
    for (const spec of nodeSpecs(9, 0, 500, new Set())) {
      expect(spec.tags[0]).toMatch(/^location:/);
      expect(GEO_REGIONS).toContain(cityOf(spec));
      expect(spec.tags[1]).toMatch(
        new RegExp(
          `^${SERIAL_TAG_KEY.replace('.', '\\.')}:${APPLIANCE_PROFILES[spec.type].serialPrefix}\\d{11}$`,
        ),
      );
    }
  });

  it('cover every city, type and a realistic model and firmware per type', () => {
    const specs = nodeSpecs(4, 0, 2000, new Set());
    expect(new Set(specs.map(cityOf))).toEqual(new Set(GEO_REGIONS));
    expect(new Set(specs.map((spec) => spec.type))).toEqual(new Set(NODE_TYPES));
    for (const spec of specs) {
      const profile = APPLIANCE_PROFILES[spec.type];
      expect(profile.models.map(([model]) => model)).toContain(spec.model);
      expect(profile.fwVersions.map(([version]) => version)).toContain(spec.fw_version);
      expect(spec.fw_version).toMatch(/^\d+\.\d+\.\d+$/);
    }
    expect(specs.filter((spec) => spec.model === 'FD-AC-1800').length).toBeGreaterThan(100);
  });

  it('give unique serial numbers', () => {
    const serials = nodeSpecs(6, 0, 3000, new Set()).map((spec) => spec.tags[1]);
    expect(new Set(serials).size).toBe(serials.length);
  });

  it('make a registration body the contract accepts, 1000 at a time', () => {
    const body = { nodes: nodeSpecs(8, 0, 1000, new Set()).map(toRegistration) };
    const parsed = RegisterNodesBodySchema.safeParse(body);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.nodes[0]?.tags).toEqual(body.nodes[0]?.tags);
  });

  it('split the fleet into topic forms, claims and owners stably by node id', () => {
    const ids = nodeSpecs(10, 0, 4000, new Set()).map((spec) => spec.node_id);
    const basic = ids.filter((id) => usesBasicIngest(id, 0.5)).length / ids.length;
    const claimed = ids.filter((id) => isClaimCandidate(id, 0.3)).length / ids.length;
    expect(basic).toBeGreaterThan(0.45);
    expect(basic).toBeLessThan(0.55);
    expect(claimed).toBeGreaterThan(0.26);
    expect(claimed).toBeLessThan(0.34);
    expect(ids.every((id) => !isClaimCandidate(id, 0) && isClaimCandidate(id, 1))).toBe(true);
    const owners = new Set(ids.map((id) => ownerSlot(id, 3)));
    expect(owners).toEqual(new Set([0, 1, 2]));
  });
});
