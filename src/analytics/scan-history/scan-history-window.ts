import type { FieldError } from '../../common/validation/field-error';
import { parseQueryInstant } from '../scan-range';

const DAY_MS = 86_400_000;

/** The rows of an export: scans with `from <= scanned_at < to`. */
export interface ScanExportWindow {
  from: Date;
  to: Date;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const INSTANT_RULE = 'an ISO 8601 date-time after 1970, e.g. 2026-11-01T00:00:00Z';

/**
 * The window of GET /qrcodes/:id/scans.csv. Parsed like /scans (scan-range.ts), with its own
 * defaults and no maximum span: the rows are streamed a page at a time, so any span costs the same
 * memory, and the code's data bounds it. `from` defaults to the epoch (the whole history), `to` to
 * now; from must be earlier than to. Every failure names its parameter.
 */
export function resolveExportWindow(query: { from?: string; to?: string }, now: Date): Checked<ScanExportWindow> {
  const errors: FieldError[] = [];
  const parse = (field: 'from' | 'to', text: string | undefined): Date | null | undefined => {
    if (text === undefined) return undefined;
    const instant = parseQueryInstant(text);
    if (!instant) errors.push({ field, message: `${field} must be ${INSTANT_RULE}` });
    return instant;
  };
  const from = parse('from', query.from);
  const to = parse('to', query.to);
  if (errors.length) return { ok: false, errors };
  const window = { from: from ?? new Date(0), to: to ?? now };
  if (window.from.getTime() >= window.to.getTime()) {
    const toText = to ? 'to' : `to (now, ${window.to.toISOString()})`;
    return { ok: false, errors: [{ field: 'from', message: `from must be earlier than ${toText}` }] };
  }
  return { ok: true, value: window };
}

/** `before` of DELETE /qrcodes/:id/scans: required, an ISO 8601 date-time (parsed like /scans' from and to). */
export function resolveErasureBefore(before: string | undefined): Checked<Date> {
  if (before === undefined) return { ok: false, errors: [{ field: 'before', message: `before is required: ${INSTANT_RULE}` }] };
  const instant = parseQueryInstant(before);
  if (!instant) return { ok: false, errors: [{ field: 'before', message: `before must be ${INSTANT_RULE}` }] };
  return { ok: true, value: instant };
}

/**
 * The UTC days an erasure touches, as `YYYY-MM-DD`: `floor`, the day holding `before` (its first
 * part is erased, its rollups are rebuilt from the rows left), and `ceil`, the first day whose
 * rows all stay (`floor` itself when `before` is a UTC midnight: then no day is cut).
 */
export function erasureDays(before: Date): { floor: string; ceil: string; cut: boolean } {
  const floorMs = Math.floor(before.getTime() / DAY_MS) * DAY_MS;
  const cut = floorMs !== before.getTime();
  const floor = new Date(floorMs).toISOString().slice(0, 10);
  return { floor, ceil: cut ? new Date(floorMs + DAY_MS).toISOString().slice(0, 10) : floor, cut };
}

/** Whether the UTC day `day` (`YYYY-MM-DD`) is today or yesterday at `now`: the days whose visitor hashes are kept (scan_day_visitors). */
export function visitorsKeptFor(day: string, now: Date): boolean {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const at = Date.parse(`${day}T00:00:00Z`);
  return at >= today - DAY_MS && at <= today;
}
