import {
  FAULT_CATALOGUE_NAME_BY_TYPE,
  FAULT_PARAM_BY_TYPE,
  type NodeType,
} from '@fleetdeck/contract';
import { FAULT_LABELS } from '../labels';

/** The appliance kinds the fault screens choose between, as they appear in a URL. */
export const FAULT_TYPE_KEYS = ['ac', 'ref', 'washer'] as const;
export type FaultTypeKey = (typeof FAULT_TYPE_KEYS)[number];

/** Everything the fault screens need to know about one appliance kind. */
export interface FaultType {
  key: FaultTypeKey;
  /** The node type the server stores. */
  nodeType: NodeType;
  /** The Faults List select's text (access §2: AC Faults, Ref Faults, Washer Faults). */
  listLabel: string;
  /** The fault device list select's text (access §2: AC, Ref, Washer). */
  shortLabel: string;
  /** The name of the fault catalogue (access §7: GET admin/common_custom_data?name=…). */
  catalogue: string;
  /** The parameter ("dimension") the nodes report their current fault in (access §7). */
  dimension: string;
}

export const FAULT_TYPES: Readonly<Record<FaultTypeKey, FaultType>> = {
  ac: {
    key: 'ac',
    nodeType: 'Air Conditioner',
    listLabel: FAULT_LABELS.acFaults,
    shortLabel: FAULT_LABELS.ac,
    catalogue: FAULT_CATALOGUE_NAME_BY_TYPE['Air Conditioner'],
    dimension: FAULT_PARAM_BY_TYPE['Air Conditioner'],
  },
  ref: {
    key: 'ref',
    nodeType: 'Refrigerator',
    listLabel: FAULT_LABELS.refFaults,
    shortLabel: FAULT_LABELS.ref,
    catalogue: FAULT_CATALOGUE_NAME_BY_TYPE.Refrigerator,
    dimension: FAULT_PARAM_BY_TYPE.Refrigerator,
  },
  washer: {
    key: 'washer',
    nodeType: 'Washing Machine',
    listLabel: FAULT_LABELS.washerFaults,
    shortLabel: FAULT_LABELS.washer,
    catalogue: FAULT_CATALOGUE_NAME_BY_TYPE['Washing Machine'],
    dimension: FAULT_PARAM_BY_TYPE['Washing Machine'],
  },
};

/** The first choice of both selects (the spec lists AC first). */
export const DEFAULT_FAULT_TYPE: FaultTypeKey = 'ac';

/**
 * A fault type from a URL (`?type=` or the `:type` segment), without regard to case. Besides
 * the short keys it takes the node type itself, the catalogue name and the dimension, so links
 * built from any of them land on the right list. Anything else is undefined.
 */
export function faultTypeFromParam(value: string | null | undefined): FaultTypeKey | undefined {
  const normalised = value?.trim().toLowerCase();
  if (!normalised) return undefined;
  for (const key of FAULT_TYPE_KEYS) {
    const type = FAULT_TYPES[key];
    const names = [type.key, type.nodeType, type.catalogue, type.dimension, type.shortLabel];
    if (names.some((name) => name.toLowerCase() === normalised)) return key;
  }
  return undefined;
}

/** The fault type of a node type (e.g. a Fault History node), or undefined for other types. */
export function faultTypeOfNode(nodeType: string | undefined): FaultTypeKey | undefined {
  if (nodeType === undefined) return undefined;
  return FAULT_TYPE_KEYS.find((key) => FAULT_TYPES[key].nodeType === nodeType);
}
