import { PolicyPage } from '../components/policy-page';

/** /privacy-policy: the deployment's Privacy Policy (public). */
export function PrivacyPolicyRoute() {
  return <PolicyPage file="privacy_policy" />;
}

/** /terms-of-service: the deployment's Terms of Use (public). */
export function TermsOfServiceRoute() {
  return <PolicyPage file="terms_of_use" />;
}
