import { Injectable } from '@nestjs/common';
import type { ScanWindow } from '../analytics/scan-range';
import type { AccountId } from '../common/ids/account-id';
import { collectGarbage } from '../common/memory/garbage-collector';
import type { FieldError } from '../common/validation/field-error';
import { FoldersService } from '../folders/folders.service';
import { currentRequest, runInRequestContext } from '../infra/http/request-context';
import type { JobRun } from '../infra/jobs/job-worker.service';
import { csvLine, csvRowOf, QR_CODE_CSV_COLUMNS } from '../qrcodes/csv/qr-code-csv';
import { type ListFilterQuery, QrCodesService } from '../qrcodes/qr-codes.service';
import type { CsvView } from './dto/export.dto';
import { ExportsRepository } from './exports.repository';
import { type CsvBatch, ReportCsvService } from './report-csv.service';

/** Codes read per query of the import-format CSV. */
const CSV_BATCH = 1000;
/**
 * CSV written between two full collections. A batch is garbage once written, but it outlives two
 * minor collections (the query's result arrives over many reads, then the socket's write) and lands
 * in the old generation, which V8 let grow by 150-330 MB over a long export before collecting it,
 * while the live heap stayed flat (bench/README.md, "Exports and imports"). A full collection after
 * every 4 MiB (about 48,000 codes; a pause of ~45 ms, which the redirect host in the same process
 * waits out too, unless the process is a worker) keeps the growth to ~75 MB at a million codes;
 * 2 MiB gave ~55 MB for twice the pauses. None in an api process (ROLE=api): see garbage-collector.ts.
 */
export const CSV_COLLECT_BYTES = 4 * 1024 * 1024;
/** The stored CSV's pieces (export_chunks), as the ZIP's. */
const PIECE_BYTES = 1024 * 1024;

/** Which CSV: the list's filters and sort, the view, and the report's window. */
export interface ListCsvParams {
  view: CsvView;
  filters: ListFilterQuery;
  window: ScanWindow | null;
}

/** `from`/`to` belong to the report view: with the import view they are errors naming them. */
export function misplacedWindowFields(view: CsvView, query: { from?: string; to?: string }): FieldError[] {
  if (view === 'report') return [];
  return (['from', 'to'] as const)
    .filter((field) => query[field] !== undefined)
    .map((field) => ({ field, message: `${field} goes with view=report` }));
}

/**
 * The list as CSV, in either view (docs/exports-and-imports.md#csv-of-the-list): streamed by
 * GET /api/v1/qrcodes.csv, or written by an export job into stored pieces (format csv). Both read
 * the same pages and write the same bytes.
 */
@Injectable()
export class ListCsvService {
  constructor(
    private readonly qrCodes: QrCodesService,
    private readonly folders: FoldersService,
    private readonly report: ReportCsvService,
    private readonly chunks: ExportsRepository,
  ) {}

  /** The report's window of `from`/`to` (absent: the last 30 days); a bad one is a 400 naming it. */
  window(query: { from?: string; to?: string }): ScanWindow {
    return this.report.window(query);
  }

  async *lines(accountId: AccountId, params: ListCsvParams): AsyncGenerator<string> {
    for await (const batch of this.batches(accountId, params)) yield batch.text;
  }

  /** The header, then a page of codes at a time, produced as they are read (constant memory however many codes match). */
  async *batches(accountId: AccountId, params: ListCsvParams): AsyncGenerator<CsvBatch> {
    const pages =
      params.view === 'report' ? this.report.batches(accountId, params.filters, params.window!) : this.importBatches(accountId, params.filters);
    let written = 0;
    for await (const batch of pages) {
      written += batch.text.length;
      if (written >= CSV_COLLECT_BYTES) {
        written = 0;
        collectGarbage('major');
      }
      yield batch;
    }
  }

  /**
   * An export job's CSV: written into pieces of about 1 MiB (export_chunks: any instance serves the
   * download), its progress reported after each page. A resumed attempt starts again from the header.
   */
  async write(run: JobRun, params: ListCsvParams): Promise<Record<string, unknown>> {
    const { accountId, id } = run.job;
    await this.chunks.clearChunks(accountId, id);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let seq = 0;
    let bytes = 0;
    let codes = 0;
    const store = async () => {
      if (pending.length > 0) await this.chunks.addChunk(accountId, id, seq++, Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
    };
    for await (const batch of this.batches(accountId, params)) {
      const piece = Buffer.from(batch.text, 'utf8');
      pending.push(piece);
      pendingBytes += piece.length;
      bytes += piece.length;
      codes += batch.codes;
      if (pendingBytes >= PIECE_BYTES) await store();
      if (batch.codes > 0) await run.progress(codes);
    }
    await store();
    await run.progress(codes, codes);
    return { codes, bytes, pieces: seq };
  }

  /** The import format's lines (the import's columns: see qr-code-csv.ts), each page read in the context of the request (the key's folders). */
  private async *importBatches(accountId: AccountId, query: ListFilterQuery): AsyncGenerator<CsvBatch> {
    const context = currentRequest();
    const folderNames = new Map((await this.folders.list(accountId)).map((folder) => [folder.id, folder.name]));
    yield { text: csvLine(QR_CODE_CSV_COLUMNS), codes: 0 };
    const pages = this.qrCodes.eachMatching(accountId, query, CSV_BATCH);
    for (;;) {
      const next = context ? await runInRequestContext(context, () => pages.next()) : await pages.next();
      if (next.done) return;
      const text = next.value.map((code) => csvLine(csvRowOf(code, code.folderId ? (folderNames.get(code.folderId) ?? null) : null))).join('');
      yield { text, codes: next.value.length };
    }
  }
}
