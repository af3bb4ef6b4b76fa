import { describe, expect, it } from 'vitest';
import { isNodeId, isNodeSubscriptionAllowed, nodePublishTopic } from './node-acl.js';

const A = 'A0A0A0000001';

describe('node ACL', () => {
  it('accepts well-formed node ids and nothing that could break a topic level', () => {
    expect(isNodeId(A)).toBe(true);
    expect(isNodeId('node_1-x')).toBe(true);
    for (const bad of ['', 'a/b', '+', '#', '$SYS', ' A ', 'a:b', 'x'.repeat(200)]) {
      expect(isNodeId(bad), bad).toBe(false);
    }
  });

  it('lets a node publish to its own topics, in both spellings, normalised', () => {
    expect(nodePublishTopic(A, `node/${A}/params/local`)).toBe(`node/${A}/params/local`);
    expect(nodePublishTopic(A, `$aws/rules/esp_node_config/node/${A}/config`)).toBe(
      `node/${A}/config`,
    );
    expect(nodePublishTopic(A, `$aws/rules/esp_init_params/node/${A}/params/local/init`)).toBe(
      `node/${A}/params/local/init`,
    );
  });

  it('refuses other nodes, mismatched or unknown rules, and anything outside node/', () => {
    for (const topic of [
      'node/B0B0B0000002/config',
      `$aws/rules/esp_set_params/node/${A}/config`,
      `$aws/rules/unknown_rule/node/${A}/config`,
      `$aws/rules/esp_node_config/node/B0B0B0000002/config`,
      `$SYS/broker/uptime`,
      `node/${A}`,
      `node/${A}/`,
      `nodes/${A}/config`,
      `${A}/config`,
    ]) {
      expect(nodePublishTopic(A, topic), topic).toBeUndefined();
    }
  });

  it('lets a node subscribe only strictly under its own node/<id>/', () => {
    expect(isNodeSubscriptionAllowed(A, `node/${A}/params/remote`)).toBe(true);
    expect(isNodeSubscriptionAllowed(A, `node/${A}/#`)).toBe(true);
    expect(isNodeSubscriptionAllowed(A, `node/${A}/+/remote`)).toBe(true);
    for (const filter of [
      '#',
      '+/+/+',
      'node/#',
      `node/+/params/remote`,
      'node/B0B0B0000002/#',
      `node/${A}`,
      `node/${A}/`,
      '$SYS/#',
      `$share/g/node/${A}/#`,
      `node/${A}0/#`,
    ]) {
      expect(isNodeSubscriptionAllowed(A, filter), filter).toBe(false);
    }
    expect(isNodeSubscriptionAllowed('+', 'node/+/x')).toBe(false);
  });
});
