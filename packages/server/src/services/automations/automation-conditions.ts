import type { AutomationCheck, AutomationValue, ParamsPayload } from '@fleetdeck/contract';

/** The condition of an automation: one param of one device compared with a value. */
export interface AutomationCondition {
  device: string;
  param: string;
  check: AutomationCheck;
  value: AutomationValue;
  /** Fire on every matching report, not only when the condition becomes true. */
  retrigger: boolean;
}

/** A param's value in a params document (undefined when the device or param is absent). */
export function paramValue(document: ParamsPayload, device: string, param: string): unknown {
  const values = Object.hasOwn(document, device) ? document[device] : undefined;
  return values && Object.hasOwn(values, param) ? values[param] : undefined;
}

/** Whether a reported value satisfies the check; a missing value satisfies nothing. */
export function conditionHolds(
  check: AutomationCheck,
  actual: unknown,
  expected: AutomationValue,
): boolean {
  if (actual === undefined || actual === null) return false;
  switch (check) {
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (typeof actual !== 'number' || typeof expected !== 'number' || !Number.isFinite(actual))
        return false;
      if (check === '<') return actual < expected;
      if (check === '<=') return actual <= expected;
      if (check === '>') return actual > expected;
      return actual >= expected;
    }
  }
}

/**
 * Whether one committed params change fires the automation: the param was reported in it and the
 * condition holds now, and (unless `retrigger`) did not hold before — edge-triggered, so a node
 * repeating the same value does not run the actions again.
 */
export function fires(
  condition: AutomationCondition,
  change: { before: ParamsPayload; after: ParamsPayload; reported: ParamsPayload },
): boolean {
  if (paramValue(change.reported, condition.device, condition.param) === undefined) return false;
  const now = paramValue(change.after, condition.device, condition.param);
  if (!conditionHolds(condition.check, now, condition.value)) return false;
  if (condition.retrigger) return true;
  const before = paramValue(change.before, condition.device, condition.param);
  return !conditionHolds(condition.check, before, condition.value);
}
