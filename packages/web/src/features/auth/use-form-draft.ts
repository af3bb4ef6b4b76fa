import type { Dispatch, SetStateAction } from 'react';
import { useDraftState } from '../../lib/form-drafts';
import { useSessionUser } from './components/session-user';

/**
 * `useState` for a signed-in screen's form values that are kept if the session ends while the
 * operator is filling the form in, and offered back to the same user after signing in again
 * (lib/form-drafts.ts). Not for passwords, codes or keys.
 */
export function useFormDraft<T>(
  key: string,
  initial: T | (() => T),
): [T, Dispatch<SetStateAction<T>>, boolean] {
  return useDraftState(key, useSessionUser().user_id, initial);
}
