const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (value: number) => String(value).padStart(2, '0');

/**
 * An epoch-seconds time as the lists show it, `DD MMM YY, HH:mm` (LIST_DATE_FORMAT), in local
 * time or, for the fault views, in UTC. Written out rather than with Intl so the format is exactly
 * the spec's in every browser locale. Missing or impossible times give undefined.
 */
export function formatListDate(
  epochSeconds: number | undefined,
  options: { utc: boolean },
): string | undefined {
  if (epochSeconds === undefined || !Number.isFinite(epochSeconds) || epochSeconds <= 0) {
    return undefined;
  }
  const date = new Date(epochSeconds * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  const utc = options.utc;
  const day = utc ? date.getUTCDate() : date.getDate();
  const month = utc ? date.getUTCMonth() : date.getMonth();
  const year = utc ? date.getUTCFullYear() : date.getFullYear();
  const hours = utc ? date.getUTCHours() : date.getHours();
  const minutes = utc ? date.getUTCMinutes() : date.getMinutes();
  return `${two(day)} ${MONTHS[month] ?? ''} ${two(year % 100)}, ${two(hours)}:${two(minutes)}`;
}
