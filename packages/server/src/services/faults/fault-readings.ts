import {
  FAULT_PARAM_BY_TYPE,
  NODE_TYPES,
  faultValueText,
  type NodeType,
  type ParamsPayload,
} from '@fleetdeck/contract';
import type { FaultReading } from '../../repositories/fault.repository.js';

/** The value of `param` in the first device that carries it, if any. */
function paramValue(document: ParamsPayload, param: string): { found: boolean; value: unknown } {
  for (const device of Object.values(document)) {
    if (device && typeof device === 'object' && Object.hasOwn(device, param))
      return { found: true, value: device[param] };
  }
  return { found: false, value: undefined };
}

/**
 * The fault reading an ingested params message yields, or undefined when it cannot change the
 * node's fault: only the fault param of the node's type is looked at, and a partial document
 * that does not mention it is skipped. `merged` is the stored document after the message.
 */
export function faultReadingOf(
  nodeId: string,
  type: string,
  message: { document: ParamsPayload; replace: boolean },
  merged: ParamsPayload,
  atSeconds: number,
): FaultReading | undefined {
  if (!(NODE_TYPES as readonly string[]).includes(type)) return undefined;
  const param = FAULT_PARAM_BY_TYPE[type as NodeType];
  if (!message.replace && !paramValue(message.document, param).found) return undefined;
  return { nodeId, param, value: faultValueText(paramValue(merged, param).value), at: atSeconds };
}
