import type { z } from 'zod';

/** Validation messages of a form: the first one per field, plus the first form-wide one. */
export interface FormErrors<Field extends string> {
  fields: Partial<Record<Field, string>>;
  form: string | null;
}

/**
 * Splits a schema's issues into per-field messages (shown under each input) and one form-wide
 * message (issues with no field path, e.g. "Please enter all the details.").
 */
export function collectFormErrors<Field extends string>(
  error: z.ZodError,
  fields: readonly Field[],
): FormErrors<Field> {
  const result: FormErrors<Field> = { fields: {}, form: null };
  for (const issue of error.issues) {
    const head = issue.path[0];
    const field = fields.find((name) => name === head);
    if (field !== undefined) {
      result.fields[field] ??= issue.message;
    } else {
      result.form ??= issue.message;
    }
  }
  return result;
}

/**
 * The errors once the user has changed `field`: that field's own message goes, and so does the
 * form-wide one (it answered the submit, not the input now in the form). Other fields keep theirs
 * until they are changed or the form is submitted again. The same object when nothing changes.
 */
export function withoutFieldError<Field extends string>(
  errors: FormErrors<Field>,
  field: Field,
): FormErrors<Field> {
  if (errors.fields[field] === undefined && errors.form === null) return errors;
  const fields = { ...errors.fields };
  delete fields[field];
  return { fields, form: null };
}
