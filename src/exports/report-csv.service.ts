import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ScanAnalyticsService } from '../analytics/scan-analytics.service';
import type { ScanWindow } from '../analytics/scan-range';
import { FoldersService } from '../folders/folders.service';
import { currentRequest, runInRequestContext } from '../infra/http/request-context';
import { csvLine, spreadsheetSafe } from '../qrcodes/csv/qr-code-csv';
import { effectiveStatus } from '../qrcodes/qr-code-status';
import { dynamicUrl } from '../qrcodes/qr-code.representation';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import { type ListFilterQuery, QrCodesService } from '../qrcodes/qr-codes.service';
import { ExportsRepository } from './exports.repository';

/** The report's columns (docs/exports-and-imports.md#the-report-csv). */
export const REPORT_CSV_COLUMNS = [
  'id',
  'name',
  'type',
  'status',
  'dynamic_url',
  'tags',
  'folder',
  'scans',
  'unique_visitors',
  'created_at',
  'updated_at',
] as const;

/** Codes read per query (with their tags and visitors: three queries a batch). */
const REPORT_BATCH = 1000;

/** A piece of CSV (the header, or a page of codes' lines) and how many codes it holds. */
export interface CsvBatch {
  text: string;
  codes: number;
}

/** What a report line shows of a code beyond its own row. */
export interface ReportExtras {
  dynamicUrl: string | null;
  tags: readonly string[];
  folder: string | null;
  uniqueVisitors: number;
}

/** One code's report line: text a person or a visitor could have written is made spreadsheet-safe. */
export function reportCsvLine(code: QrCodeRecord, extras: ReportExtras, now = Date.now()): string {
  return csvLine([
    code.id,
    spreadsheetSafe(code.name),
    code.type,
    effectiveStatus(code.status, code.expiresAt, now),
    extras.dynamicUrl ?? '',
    spreadsheetSafe(extras.tags.join('|')),
    spreadsheetSafe(extras.folder ?? ''),
    String(code.scans),
    String(extras.uniqueVisitors),
    code.createdAt.toISOString(),
    code.updatedAt.toISOString(),
  ]);
}

/**
 * The report CSV (GET /api/v1/qrcodes.csv?view=report, or an export of format csv with view report): one line per code of the list's filters
 * and sort, read a keyset page at a time as the response is read (constant memory however many
 * codes match), each page's tags and unique visitors in a window read alongside it.
 */
@Injectable()
export class ReportCsvService {
  constructor(
    private readonly qrCodes: QrCodesService,
    private readonly folders: FoldersService,
    private readonly analytics: ScanAnalyticsService,
    private readonly repository: ExportsRepository,
  ) {}

  /** The window of `from`/`to` (absent: the last 30 days), checked before any line is written: a bad one is a 400 naming it. */
  window(query: { from?: string; to?: string }): ScanWindow {
    return this.analytics.reportWindow(query);
  }

  /** The header, then a page at a time (ListCsvService collects the garbage they leave). */
  async *batches(accountId: AccountId, query: ListFilterQuery, window: ScanWindow): AsyncGenerator<CsvBatch> {
    const context = currentRequest();
    const inContext = <T>(work: () => Promise<T>) => (context ? runInRequestContext(context, work) : work());
    const folderNames = new Map((await this.folders.list(accountId)).map((folder) => [folder.id, folder.name]));
    yield { text: csvLine([...REPORT_CSV_COLUMNS]), codes: 0 };
    const pages = this.qrCodes.eachMatching(accountId, query, REPORT_BATCH);
    for (;;) {
      const next = await inContext(() => pages.next());
      if (next.done) return;
      yield { text: await inContext(() => this.batchLines(accountId, next.value, window, folderNames)), codes: next.value.length };
    }
  }

  private async batchLines(accountId: AccountId, codes: QrCodeRecord[], window: ScanWindow, folderNames: Map<string, string>): Promise<string> {
    const ids: QrCodeId[] = codes.map((code) => code.id);
    const [tags, visitors] = await Promise.all([this.repository.tagNamesOf(accountId, ids), this.analytics.uniqueVisitorsOf(accountId, ids, window)]);
    const now = Date.now();
    return codes
      .map((code) => {
        const link = code.isDynamic && code.shortCode ? dynamicUrl(this.qrCodes.origins, code.shortCode, code.domainHostname) : null;
        const folder = code.folderId ? (folderNames.get(code.folderId) ?? null) : null;
        return reportCsvLine(code, { dynamicUrl: link, tags: tags.get(code.id) ?? [], folder, uniqueVisitors: visitors.get(code.id) ?? 0 }, now);
      })
      .join('');
  }
}
