import { z } from 'zod';

/** `{"status":"success","description":…}`, the answer of every write. */
export const SuccessBodySchema = z.object({
  status: z.literal('success'),
  description: z.string(),
});
export type SuccessBody = z.infer<typeof SuccessBodySchema>;

/** `{"status":"failure","description":…,"error_code":…}`, the answer of every failure. */
export const FailureBodySchema = z.object({
  status: z.literal('failure'),
  description: z.string(),
  error_code: z.number().int(),
});

/** Query-string booleans are the strings `true` and `false`. */
export const QueryBooleanSchema = z.enum(['true', 'false']).transform((value) => value === 'true');
