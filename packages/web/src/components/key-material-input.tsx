import { Textarea } from '@mantine/core';

/**
 * A box for pasted key material (PEM certificates and keys, service-account JSON): monospaced
 * and small, growing with its content between `minRows` and twice that.
 */
export function KeyMaterialInput(props: {
  label: string;
  description: string;
  value: string;
  onChange: (value: string) => void;
  minRows: number;
}) {
  return (
    <Textarea
      label={props.label}
      description={props.description}
      value={props.value}
      onChange={(event) => props.onChange(event.currentTarget.value)}
      autosize
      minRows={props.minRows}
      maxRows={props.minRows * 2}
      spellCheck={false}
      autoComplete="off"
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
    />
  );
}
