import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { HOME_PATH, MFA_VERIFICATION_PATH, UNAUTHORISED_PATH } from '../../lib/paths';
import type { SignInOutcome } from './api/login.mutation';

/**
 * Where each sign-in outcome leads (access §4 Login): the MFA step, /unauthorised when the
 * customer-mode check fails, otherwise /home.
 */
export function useContinueSignIn(): (outcome: SignInOutcome) => void {
  const navigate = useNavigate();
  return useCallback(
    (outcome: SignInOutcome) => {
      switch (outcome.kind) {
        case 'mfa':
          void navigate(MFA_VERIFICATION_PATH);
          return;
        case 'unauthorised':
          void navigate(UNAUTHORISED_PATH, { replace: true });
          return;
        case 'signed-in':
          void navigate(HOME_PATH, { replace: true });
          return;
      }
    },
    [navigate],
  );
}
