import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { HOME_PATH, MFA_VERIFICATION_PATH, UNAUTHORISED_PATH } from '../../lib/paths';
import type { SignInOutcome } from './api/login.mutation';
import { returnPathAfterLogin } from './return-path';

/**
 * Where each sign-in outcome leads (access §4 Login): the MFA step, /unauthorised when the
 * customer-mode check fails, otherwise /home, or the signed-in page the operator was sent away
 * from (its path travels in the navigation state, through the MFA step too).
 */
export function useContinueSignIn(): (outcome: SignInOutcome) => void {
  const navigate = useNavigate();
  const { state } = useLocation() as { state: unknown };
  return useCallback(
    (outcome: SignInOutcome) => {
      switch (outcome.kind) {
        case 'mfa':
          void navigate(MFA_VERIFICATION_PATH, { state });
          return;
        case 'unauthorised':
          void navigate(UNAUTHORISED_PATH, { replace: true });
          return;
        case 'signed-in':
          void navigate(returnPathAfterLogin(state, HOME_PATH), { replace: true });
          return;
      }
    },
    [navigate, state],
  );
}
