import { VERIFICATION_CODE_LENGTH } from '@fleetdeck/contract';
import { TextInput, type TextInputProps } from '@mantine/core';

/** A 6-digit one-time code field: numeric keypad on phones, autofill of SMS codes. */
export function CodeInput(props: Omit<TextInputProps, 'type'>) {
  return (
    <TextInput
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={VERIFICATION_CODE_LENGTH}
      placeholder="000000"
      styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
      {...props}
    />
  );
}
