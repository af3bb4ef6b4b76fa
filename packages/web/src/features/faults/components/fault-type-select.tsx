import { NativeSelect } from '@mantine/core';
import { FAULT_LABELS } from '../labels';
import {
  FAULT_TYPES,
  FAULT_TYPE_KEYS,
  faultTypeFromParam,
  type FaultTypeKey,
} from '../model/fault-types';

/** The appliance-type select of the fault screens: 'AC Faults' … or, short, 'AC' … */
export function FaultTypeSelect({
  value,
  onChange,
  short,
  fullWidth = false,
}: {
  value: FaultTypeKey;
  onChange: (value: FaultTypeKey) => void;
  /** The fault device list's short labels (AC, Ref, Washer). */
  short: boolean;
  /** Fill the box it is put in instead of its own width. */
  fullWidth?: boolean;
}) {
  return (
    <NativeSelect
      size="sm"
      w={fullWidth ? '100%' : { base: '100%', xs: short ? 140 : 180 }}
      label={FAULT_LABELS.deviceType}
      name="fault_type"
      data={FAULT_TYPE_KEYS.map((key) => ({
        value: key,
        label: short ? FAULT_TYPES[key].shortLabel : FAULT_TYPES[key].listLabel,
      }))}
      value={value}
      onChange={(event) => {
        const next = faultTypeFromParam(event.currentTarget.value);
        if (next !== undefined) onChange(next);
      }}
    />
  );
}
