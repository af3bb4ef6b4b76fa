import { MESSAGES } from '@fleetdeck/contract';
import type { z } from 'zod';
import { collectFormErrors, type FormErrors } from './form-errors';
import { loadSchemas, type ContractSchemas } from './lazy-schemas';

/** No validation message at all. */
export function noFormErrors<Field extends string>(): FormErrors<Field> {
  return { fields: {}, form: null };
}

/**
 * Validates a form's values with one of the contract's schemas (loaded on first use) and
 * reports the outcome through `setErrors`: the messages on failure, none on success. Returns
 * the parsed values, or undefined when the form must not be sent (invalid, or the schemas could
 * not be loaded, which shows the generic failure message).
 */
export async function validateForm<Field extends string, Schema extends z.ZodType>(
  pick: (schemas: ContractSchemas) => Schema,
  values: unknown,
  fields: readonly Field[],
  setErrors: (errors: FormErrors<Field>) => void,
): Promise<z.infer<Schema> | undefined> {
  let schema: Schema;
  try {
    schema = pick(await loadSchemas());
  } catch {
    setErrors({ fields: {}, form: MESSAGES.somethingWentWrong });
    return undefined;
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    setErrors(collectFormErrors(parsed.error, fields));
    return undefined;
  }
  setErrors(noFormErrors());
  return parsed.data;
}
