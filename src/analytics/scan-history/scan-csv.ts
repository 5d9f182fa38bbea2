import { csvLine, spreadsheetSafe } from '../../qrcodes/csv/qr-code-csv';

import { type RuleNames, ruleNamesOf } from '../rule-names';

export { spreadsheetSafe };

/**
 * The CSV of a code's scans (docs/scans-and-privacy.md#exporting-and-erasing-a-codes-scans): one
 * line per stored scan, in these columns. Never the visitor hash (it links a visitor's scans of a
 * day) nor the user agent (with the time it fingerprints a person; device, os and browser are what
 * analytics use of it).
 */
export const SCAN_CSV_COLUMNS = [
  'time',
  'device',
  'os',
  'browser',
  'referrer',
  'country',
  'city',
  'rule',
  'arm',
  'bot',
  'rule_name',
  'arm_name',
] as const;

/** A stored scan as the export reads it. */
export interface ExportedScanRow {
  /** ISO 8601 UTC with milliseconds, formatted by the database */
  time: string;
  device: string;
  os: string;
  browser: string;
  referrer: string | null;
  country: string | null;
  city: string | null;
  rule_index: number | null;
  arm_index: number | null;
  is_bot: boolean;
}

/**
 * One scan's line: the columns above, quoted by the list export's CSV writer (qr-code-csv.ts). The
 * rule and arm are the indexes the scan recorded; their names, the ones those indexes carry now.
 */
export function scanCsvLine(row: ExportedScanRow, names: RuleNames = ruleNamesOf(null)): string {
  const ruleName = row.rule_index === null ? null : names.rule(row.rule_index);
  const armName = row.rule_index === null || row.arm_index === null ? null : names.arm(row.rule_index, row.arm_index);
  return csvLine([
    row.time,
    spreadsheetSafe(row.device),
    spreadsheetSafe(row.os),
    spreadsheetSafe(row.browser),
    spreadsheetSafe(row.referrer ?? ''),
    row.country ?? '',
    spreadsheetSafe(row.city ?? ''),
    row.rule_index === null ? '' : String(row.rule_index),
    row.arm_index === null ? '' : String(row.arm_index),
    row.is_bot ? 'true' : 'false',
    spreadsheetSafe(ruleName ?? ''),
    spreadsheetSafe(armName ?? ''),
  ]);
}

export const SCAN_CSV_HEADER = csvLine([...SCAN_CSV_COLUMNS]);
