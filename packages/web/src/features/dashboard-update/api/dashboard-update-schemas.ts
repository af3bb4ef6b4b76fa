/** Loaded on demand, so zod stays out of the dashboard shell's first JS. */
export { DashboardUpdateCheckSchema, SuccessBodySchema } from '@fleetdeck/contract';
