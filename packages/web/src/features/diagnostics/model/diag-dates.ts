/**
 * Times on the diagnostics screens, in the zone whose offset the insights API was told (the
 * viewer's), so a log entry's time falls under the timeline bar of its day. Written out rather
 * than with Intl so the format is the spec's (`DD MMM YY HH:mm`) in every browser locale.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (value: number) => String(value).padStart(2, '0');

/** Beyond this a timestamp is read as milliseconds (10-digit seconds end in 2286). */
const MILLISECOND_THRESHOLD = 1e11;

function shifted(epoch: number, tzOffset: number): Date | null {
  if (!Number.isFinite(epoch) || epoch <= 0) return null;
  const seconds = epoch >= MILLISECOND_THRESHOLD ? epoch / 1000 : epoch;
  const date = new Date((seconds + tzOffset) * 1000);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `DD MMM YY HH:mm:ss`: a log entry's time (seconds matter when reading a crash sequence). */
export function formatLogTime(epoch: number, tzOffset: number): string {
  const d = shifted(epoch, tzOffset);
  if (d === null) return '—';
  return `${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()] ?? ''} ${two(d.getUTCFullYear() % 100)} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** `DD MMM`: a day's bar on the Week and Month timelines. */
export function formatDayLabel(epoch: number, tzOffset: number): string {
  const d = shifted(epoch, tzOffset);
  return d === null ? '' : `${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()] ?? ''}`;
}

/** `DD MMM YYYY`: the day a Day timeline shows. */
export function formatDayHeading(epoch: number, tzOffset: number): string {
  const d = shifted(epoch, tzOffset);
  return d === null
    ? ''
    : `${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()] ?? ''} ${d.getUTCFullYear()}`;
}

/** `HH:mm`: an hour's bar on the Day timeline, and a graph's time axis. */
export function formatClock(epoch: number, tzOffset: number): string {
  const d = shifted(epoch, tzOffset);
  return d === null ? '' : `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** `UTC+05:30`: the zone the screen's times are in. */
export function formatZone(tzOffset: number): string {
  const sign = tzOffset < 0 ? '−' : '+';
  const minutes = Math.abs(Math.round(tzOffset / 60));
  return `UTC${sign}${two(Math.floor(minutes / 60))}:${two(minutes % 60)}`;
}
