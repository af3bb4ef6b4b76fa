import { z } from 'zod';

/**
 * The device protocol (ARCHITECTURE §5, rainmaker-contract B.2): topics under `node/<node_id>/`,
 * their payloads, and the AWS "basic ingest" spelling stock firmware publishes with.
 */

export const NODE_TOPIC_PREFIX = 'node';

/** Node → cloud topic suffixes Fleetdeck ingests. */
export const INGEST_SUFFIXES = [
  'config',
  'params/local',
  'params/local/init',
  'alert',
  'user/mapping',
  'otafetch',
  'otastatus',
  'diagnostics/from-node',
  'connection',
] as const;
export type IngestSuffix = (typeof INGEST_SUFFIXES)[number];

/** Cloud → node topic suffixes. */
export const PUBLISH_SUFFIXES = ['params/remote', 'otaurl', 'to-node'] as const;

/** The fixed rule names of the `$aws/rules/<rule>/node/<id>/<suffix>` form (B.1). */
export const BASIC_INGEST_RULES: Readonly<Record<string, string>> = {
  esp_node_config: 'config',
  esp_set_params: 'params/local',
  esp_init_params: 'params/local/init',
  esp_node_alert: 'alert',
  esp_user_node_mapping: 'user/mapping',
  esp_node_otafetch: 'otafetch',
  esp_node_otastatus: 'otastatus',
  esp_ts_ingest: 'tsdata',
  esp_simple_ts_ingest: 'simple_tsdata',
  esp_cmd_resp: 'from-node',
};

/** `node/<id>/<suffix>`. */
export function nodeTopic(nodeId: string, suffix: string): string {
  return `${NODE_TOPIC_PREFIX}/${nodeId}/${suffix}`;
}

/** The basic-ingest spelling firmware uses for a node → cloud publish, when it has one. */
export function basicIngestTopic(nodeId: string, suffix: string): string | undefined {
  const rule = Object.entries(BASIC_INGEST_RULES).find(([, s]) => s === suffix)?.[0];
  return rule ? `$aws/rules/${rule}/node/${nodeId}/${suffix}` : undefined;
}

/**
 * Splits a topic into node id and suffix, accepting both `node/<id>/<suffix>` and
 * `$aws/rules/<rule>/node/<id>/<suffix>` (the rule must be a known one and match the suffix).
 * Returns undefined for anything else.
 */
export function parseNodeTopic(topic: string): { nodeId: string; suffix: string } | undefined {
  let rest = topic;
  if (rest.startsWith('$aws/rules/')) {
    const parts = rest.split('/');
    const rule = parts[2];
    if (!rule || parts[3] !== NODE_TOPIC_PREFIX) return undefined;
    rest = parts.slice(3).join('/');
    const parsed = parseNodeTopic(rest);
    if (!parsed || BASIC_INGEST_RULES[rule] !== parsed.suffix) return undefined;
    return parsed;
  }
  const match = /^node\/([^/+#$]+)\/(.+)$/.exec(rest);
  if (!match?.[1] || !match[2] || /[+#]/.test(match[2])) return undefined;
  return { nodeId: match[1], suffix: match[2] };
}

/** B.4.1 node config (only what Fleetdeck reads is checked; the rest is kept verbatim). */
export const NodeConfigPayloadSchema = z
  .object({
    node_id: z.string().max(64),
    config_version: z.string().optional(),
    info: z
      .object({
        name: z.string().max(256).optional(),
        fw_version: z.string().max(64).optional(),
        type: z.string().max(64).optional(),
        model: z.string().max(64).optional(),
        project_name: z.string().max(128).optional(),
        platform: z.string().max(64).optional(),
      })
      .loose(),
    devices: z.array(z.unknown()).optional(),
    services: z.array(z.unknown()).optional(),
    attributes: z.array(z.unknown()).optional(),
  })
  .loose();
export type NodeConfigPayload = z.infer<typeof NodeConfigPayloadSchema>;

/** B.4.2 params document: device (or service) name → param name → value. */
export const ParamsPayloadSchema = z.record(
  z.string().max(128),
  z.record(z.string().max(128), z.unknown()),
);
export type ParamsPayload = z.infer<typeof ParamsPayloadSchema>;

/** B.4.4 alert. */
export const AlertPayloadSchema = z.union([
  z.object({ 'esp.alert.str': z.string().max(1024) }),
  ParamsPayloadSchema,
]);
export type AlertPayload = z.infer<typeof AlertPayloadSchema>;

/** B.7 user/mapping publish. */
export const UserMappingPayloadSchema = z.object({
  node_id: z.string().max(64),
  user_id: z.string().max(128),
  secret_key: z.string().max(256),
  reset: z.boolean().optional(),
});
export type UserMappingPayload = z.infer<typeof UserMappingPayloadSchema>;

/**
 * The retained birth message and Last Will on `node/<id>/connection`, the connectivity source on
 * external brokers (ARCHITECTURE §5).
 */
export const ConnectionPayloadSchema = z.object({
  connected: z.boolean(),
  /** Epoch milliseconds when the node (or its broker, for the will) wrote this. */
  timestamp: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * Increases with every connection of the node, so a late will cannot undo a newer birth. Both
   * numbers are stored as 64-bit integers: a larger one failed PostgreSQL's ingest batch.
   */
  session: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type ConnectionPayload = z.infer<typeof ConnectionPayloadSchema>;
