import { describe, expect, it } from 'vitest';
import { fieldError } from './use-focus-first-invalid';

describe('fieldError', () => {
  it('keeps a field’s own message whatever the form says', () => {
    expect(fieldError('Enter a valid e-mail.', 'Please enter all the details.', '')).toBe(
      'Enter a valid e-mail.',
    );
  });

  it('marks an empty field invalid, without a message of its own, while the form-wide message shows', () => {
    expect(fieldError(undefined, 'Please enter all the details.', '')).toBe(true);
    expect(fieldError(undefined, 'Please enter all the details.', false)).toBe(true);
  });

  it('leaves a filled field, and every field without a form-wide message, alone', () => {
    expect(fieldError(undefined, 'Please enter all the details.', 'x')).toBeUndefined();
    expect(fieldError(undefined, 'Please enter all the details.', true)).toBeUndefined();
    expect(fieldError(undefined, null, '')).toBeUndefined();
  });
});
