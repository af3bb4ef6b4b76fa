import { NativeSelect } from '@mantine/core';
import { NODE_LABELS } from '../labels';
import type { TypeOption } from '../model/filters';
import classes from './filter-field.module.css';

/** The device-type dropdown. */
export function TypeSelect({
  options,
  value,
  onChange,
}: {
  options: readonly TypeOption[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <NativeSelect
      size="sm"
      className={classes.field}
      style={{ '--filter-field-width': '180px' }}
      label={NODE_LABELS.deviceType}
      data={options.map((option) => ({ value: option.value, label: option.label }))}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
