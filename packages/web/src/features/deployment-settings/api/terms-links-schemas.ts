/** Loaded on demand by the login page's links, so zod stays out of the sign-in page's first JS. */
export { TermsLinksSchema } from '@fleetdeck/contract';
