import {
  AlertPayloadSchema,
  NodeConfigPayloadSchema,
  OtaFetchPayloadSchema,
  OtaStatusPayloadSchema,
  ParamsPayloadSchema,
  UserMappingPayloadSchema,
  type ParamsPayload,
} from '@fleetdeck/contract';
import type { z } from 'zod';
import type { Logger } from '../logger.js';
import { containsNul } from '../nul.js';
import type { NodeGatewayPort } from '../services/nodes/node-gateway.port.js';
import { decodeDiagnosticsPayload } from './diagnostics-frame.js';
import { NODE_PAYLOAD_LIMIT } from './node-acl.js';

/** The suffix of a node's question for an update, whose acknowledgement waits for the answer. */
export const OTA_FETCH_SUFFIX = 'otafetch';

/** What became of one node message. */
export type RouteOutcome = 'ingested' | 'ignored' | 'invalid' | 'failed';

/** JSON's only way to put a NUL character in a string (a raw NUL byte is not JSON). */
const NUL_ESCAPE = Buffer.from('\\u0000');
export const NUL_REASON = 'payload holds a NUL character';

/**
 * Parses a JSON payload with `schema`, or says why it does not fit. `accepts`, when given, is a
 * cheaper check that accepts only what the schema accepts: a payload it takes skips the schema.
 * A payload with a NUL character in any string is refused: PostgreSQL cannot store it, and one
 * such message used to fail its whole ingest batch, over and over.
 */
function parsePayload<T>(
  schema: z.ZodType<T>,
  payload: Buffer,
  accepts?: (json: unknown) => json is T,
): { ok: true; value: T } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'payload is not JSON' };
  }
  if (payload.includes(NUL_ESCAPE) && containsNul(json)) return { ok: false, reason: NUL_REASON };
  if (accepts?.(json)) return { ok: true, value: json };
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, reason: parsed.error.issues[0]?.message ?? 'payload does not match' };
  }
  return { ok: true, value: parsed.data };
}

const PROTO_KEY = '__proto__';

/** Longest device or param name ParamsPayloadSchema accepts. */
const PARAMS_NAME_MAX = 128;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `json` is a params document, `{device: {param: value}}` with names of at most 128
 * characters, that ParamsPayloadSchema accepts as it is: checked without building zod's copy.
 * A document the schema would change (it drops `__proto__` keys) goes through the schema. Params are
 * most of a fleet's traffic (B1), and the schema pass was ~5 % of the ingest's CPU.
 */
export function isParamsDocument(json: unknown): json is ParamsPayload {
  if (!isRecord(json)) return false;
  for (const device of Object.keys(json)) {
    // A `__proto__` key (JSON.parse makes it an own property) is left to the schema, which drops it.
    if (device.length > PARAMS_NAME_MAX || device === PROTO_KEY) return false;
    const params = json[device];
    if (!isRecord(params)) return false;
    for (const param of Object.keys(params))
      if (param.length > PARAMS_NAME_MAX || param === PROTO_KEY) return false;
  }
  return true;
}

/**
 * Hands one node → cloud message, already authorised and split into node id and suffix, to the
 * port. Bad JSON, payloads that do not match their schema, and payloads naming another node are
 * logged and dropped; suffixes Fleetdeck does not ingest here are ignored. Never throws: it runs
 * inside broker callbacks, where an exception would take the broker down.
 */
export function routeNodeMessage(
  port: NodeGatewayPort,
  logger: Logger,
  nodeId: string,
  suffix: string,
  payload: Buffer,
  at: number,
): RouteOutcome {
  if (payload.length > NODE_PAYLOAD_LIMIT) {
    logger.warn({ nodeId, suffix, bytes: payload.length }, 'node message too large: dropped');
    if (suffix === 'diagnostics/from-node') port.nodeDiagnosticsRejected(nodeId, 'too large', at);
    return 'invalid';
  }
  const drop = (reason: string): RouteOutcome => {
    logger.warn({ nodeId, suffix, reason }, 'invalid node message: dropped');
    return 'invalid';
  };
  try {
    switch (suffix) {
      case 'config': {
        const parsed = parsePayload(NodeConfigPayloadSchema, payload);
        if (!parsed.ok) return drop(parsed.reason);
        if (parsed.value.node_id !== nodeId) return drop('node_id differs from the topic');
        port.nodeConfig(nodeId, parsed.value, at);
        return 'ingested';
      }
      case 'params/local':
      case 'params/local/init': {
        const parsed = parsePayload(ParamsPayloadSchema, payload, isParamsDocument);
        if (!parsed.ok) return drop(parsed.reason);
        port.nodeParams(nodeId, parsed.value, suffix === 'params/local/init', at);
        return 'ingested';
      }
      case 'alert': {
        const parsed = parsePayload(AlertPayloadSchema, payload);
        if (!parsed.ok) return drop(parsed.reason);
        port.nodeAlert(nodeId, parsed.value, at);
        return 'ingested';
      }
      case 'user/mapping': {
        const parsed = parsePayload(UserMappingPayloadSchema, payload);
        if (!parsed.ok) return drop(parsed.reason);
        if (parsed.value.node_id !== nodeId) return drop('node_id differs from the topic');
        port.nodeUserMapping(nodeId, parsed.value, at);
        return 'ingested';
      }
      case OTA_FETCH_SUFFIX: {
        const parsed = parsePayload(OtaFetchPayloadSchema, payload);
        if (!parsed.ok) return drop(parsed.reason);
        if (parsed.value.node_id !== nodeId) return drop('node_id differs from the topic');
        port.nodeOtaFetch(nodeId, parsed.value, at);
        return 'ingested';
      }
      case 'otastatus': {
        const parsed = parsePayload(OtaStatusPayloadSchema, payload);
        if (!parsed.ok) return drop(parsed.reason);
        port.nodeOtaStatus(nodeId, parsed.value, at);
        return 'ingested';
      }
      case 'diagnostics/from-node': {
        // JSON or the ESP Insights binary frame; bad frames are counted by the port.
        const decoded = decodeDiagnosticsPayload(payload);
        if (!decoded.ok) {
          port.nodeDiagnosticsRejected(nodeId, decoded.reason, at);
          return drop(decoded.reason);
        }
        if (decoded.kind === 'config') return 'ignored';
        if (containsNul(decoded.message)) {
          port.nodeDiagnosticsRejected(nodeId, NUL_REASON, at);
          return drop(NUL_REASON);
        }
        port.nodeDiagnostics(
          nodeId,
          { message: decoded.message, elfMissing: decoded.elfMissing },
          at,
        );
        return 'ingested';
      }
      default:
        logger.debug({ nodeId, suffix }, 'node message not ingested by the gateway');
        return 'ignored';
    }
  } catch (error) {
    logger.error({ err: error, nodeId, suffix }, 'node message handler failed');
    return 'failed';
  }
}
