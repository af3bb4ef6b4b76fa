import { selfSignedCertificate } from '../../packages/server/test/helpers/push-stand-ins.js';

/** A fresh self-signed EC certificate for `subject` (openssl -subj form) and its key, in PEM. */
export const certificate = (subject: string): { cert: string; key: string } =>
  selfSignedCertificate(subject);
