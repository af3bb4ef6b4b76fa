const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (value: number) => String(value).padStart(2, '0');

/** Beyond this a timestamp is read as milliseconds (10-digit seconds end in 2286). */
const MILLISECOND_THRESHOLD = 1e11;

/**
 * A fault time as the fault screens show it (access §2, §9): `DD MMM YY HH:mm` (DATE_FORMAT) in
 * UTC, whatever the browser's zone or locale. Epoch seconds (the spec's 10-digit timestamps);
 * a millisecond value is recognised and read as such. Missing or impossible times give undefined.
 */
export function formatFaultDate(epoch: number | undefined | null): string | undefined {
  if (epoch === undefined || epoch === null || !Number.isFinite(epoch) || epoch <= 0) {
    return undefined;
  }
  const date = new Date(epoch >= MILLISECOND_THRESHOLD ? epoch : epoch * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  const day = two(date.getUTCDate());
  const month = MONTHS[date.getUTCMonth()] ?? '';
  const year = two(date.getUTCFullYear() % 100);
  return `${day} ${month} ${year} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}`;
}
