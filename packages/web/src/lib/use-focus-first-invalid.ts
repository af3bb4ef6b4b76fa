import { useCallback, useEffect, useRef, useState } from 'react';

/** What a failed submit marks: the inputs and controls that have `aria-invalid="true"`. */
const INVALID = '[aria-invalid="true"]';

/**
 * Moves keyboard focus to a form's first invalid field after a failed submit, so screen-reader
 * users hear which field to fix (its error is tied to it by aria-describedby) and keyboard users
 * are already in it. Put `formRef` on the <form> and call `focusFirstInvalid()` in the same
 * event (or async step) that sets the errors: focus moves once those errors have rendered.
 */
export function useFocusFirstInvalid<Form extends HTMLElement = HTMLFormElement>(): {
  formRef: React.RefObject<Form | null>;
  focusFirstInvalid: () => void;
} {
  const formRef = useRef<Form>(null);
  const [failedSubmits, setFailedSubmits] = useState(0);

  useEffect(() => {
    if (failedSubmits === 0) return;
    formRef.current?.querySelector<HTMLElement>(INVALID)?.focus();
  }, [failedSubmits]);

  const focusFirstInvalid = useCallback(() => setFailedSubmits((count) => count + 1), []);
  return { formRef, focusFirstInvalid };
}

/**
 * A field's `error` prop when the form may also answer with one form-wide message ("Please enter
 * all the details."): the field's own message if it has one, else `true` (outlined and
 * `aria-invalid`, no text of its own) when that message is shown and the field is still empty.
 */
export function fieldError(
  own: string | undefined,
  formMessage: string | null,
  value: string | boolean,
): string | boolean | undefined {
  if (own !== undefined) return own;
  return formMessage !== null && (value === '' || value === false) ? true : undefined;
}
