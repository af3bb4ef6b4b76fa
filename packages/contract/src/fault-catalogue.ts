import type { NodeType } from './constants.js';

/**
 * The fault catalogues installed on first start and used by the simulator. A node reports the
 * `err_code` (as its fault param's value; the simulator sends it as an int); the appliance's
 * display shows `disp_code`. No I/O.
 */

/** One catalogue entry (access §3 Fault definition). */
export interface FaultDefinitionEntry {
  err_code: string;
  disp_code: string;
  description: string;
}

/** The common_custom_data name of each appliance type's catalogue (access §7). */
export const FAULT_CATALOGUE_NAME_BY_TYPE: Readonly<Record<NodeType, string>> = {
  'Air Conditioner': 'ac_faults',
  Refrigerator: 'refrigerator_faults',
  'Washing Machine': 'washing_machine_faults',
};

/** The three catalogue names, in the order of the Faults List type select. */
export const FAULT_CATALOGUE_NAMES = [
  'ac_faults',
  'refrigerator_faults',
  'washing_machine_faults',
] as const;
export type FaultCatalogueName = (typeof FAULT_CATALOGUE_NAMES)[number];

const entry = (code: number, description: string): FaultDefinitionEntry => ({
  err_code: String(code),
  disp_code: `E${code}`,
  description,
});

/** Plausible default catalogues per appliance type. */
export const DEFAULT_FAULT_CATALOGUES: Readonly<Record<NodeType, readonly FaultDefinitionEntry[]>> =
  {
    'Air Conditioner': [
      entry(1, 'Indoor room temperature sensor open or shorted'),
      entry(2, 'Indoor coil temperature sensor open or shorted'),
      entry(3, 'Outdoor coil temperature sensor open or shorted'),
      entry(4, 'Compressor overload protection'),
      entry(5, 'Communication error between indoor and outdoor unit'),
      entry(6, 'Indoor fan motor stalled or feedback lost'),
      entry(7, 'Low refrigerant / suspected gas leak'),
      entry(8, 'High discharge pressure protection'),
    ],
    Refrigerator: [
      entry(1, 'Freezer compartment temperature sensor fault'),
      entry(2, 'Fresh food compartment temperature sensor fault'),
      entry(3, 'Evaporator fan motor fault'),
      entry(4, 'Condenser fan motor fault'),
      entry(5, 'Defrost sensor fault (defrost cycle not terminating)'),
      entry(6, 'Ambient temperature sensor fault'),
      entry(7, 'Ice maker module fault'),
      entry(8, 'Door left open for more than 5 minutes'),
    ],
    'Washing Machine': [
      entry(10, 'Water inlet timeout (check tap and inlet filter)'),
      entry(21, 'Drain pump fault (drain timeout)'),
      entry(30, 'Door lock fault'),
      entry(40, 'Unbalanced load'),
      entry(50, 'Drum motor fault'),
      entry(60, 'Water heater fault'),
      entry(70, 'Water level sensor fault'),
      entry(90, 'Communication error between display and main board'),
    ],
  };

/** Whether a reported fault value means "no fault" ('' , 0, '0', null, false, absent). */
export function isNoFault(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === false ||
    value === 0 ||
    (typeof value === 'string' && (value.trim() === '' || value.trim() === '0'))
  );
}

/** The stored text of a reported fault value: '' for no fault, else the code as text (≤ 64). */
export function faultValueText(value: unknown): string {
  if (isNoFault(value)) return '';
  if (typeof value === 'string') return value.trim().slice(0, 64);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value).slice(0, 64);
}
