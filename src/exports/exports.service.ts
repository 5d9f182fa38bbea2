import { ForbiddenException, HttpException, HttpStatus, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { allows } from '../common/auth/scopes';
import type { AccountId } from '../common/ids/account-id';
import type { JobId, QrCodeId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { FoldersService, NOT_YOUR_FOLDER } from '../folders/folders.service';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import { currentRequest } from '../infra/http/request-context';
import { submittedBy } from '../infra/jobs/job';
import { type JobRecord, JobQueueRepository } from '../infra/jobs/job-queue.repository';
import { type JobRun, JobWorker } from '../infra/jobs/job-worker.service';
import { csvLine } from '../qrcodes/csv/qr-code-csv';
import { dynamicUrl } from '../qrcodes/qr-code.representation';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import { type ListFilterQuery, QrCodesService } from '../qrcodes/qr-codes.service';
import { type CreateExportDto, type CsvView, MAX_ZIP_CODES } from './dto/export.dto';
import { type ExportFileOptions, pixelSize, renderExportEntry } from './export-entry';
import { ExportsRepository } from './exports.repository';
import { ListCsvService, misplacedWindowFields } from './list-csv.service';
import { ZipWriter, zipEntryName } from './zip-writer';

/** An export's ZIP is kept this long after it is done. */
export const KEEP_ZIP_MS = 24 * 3600_000;
/** Exports and imports an account may have waiting or running at once, each; more answer 429. */
const MAX_UNFINISHED_EXPORTS = 10;
const PROGRESS_EVERY = 50;
const BATCH = 200;
const MANIFEST_COLUMNS = ['id', 'name', 'file', 'short_code', 'dynamic_url'];

/** What the job keeps of the request: a ZIP's files' options, or a CSV's view and window. */
interface ExportParams {
  ids: QrCodeId[] | null;
  filters: ListFilterQuery | null;
  format: ExportFileOptions['format'] | 'csv';
  size?: number;
  width_mm?: number;
  dpi?: number;
  view?: CsvView;
  /** The report's window (ISO 8601), fixed when the export is asked for. */
  from?: string;
  to?: string;
}

const IMAGE_OPTIONS = ['size', 'width_mm', 'dpi'] as const;

/**
 * Exports as jobs (docs/exports-and-imports.md#zip-exports): the selection is checked when the export
 * is asked for (another account's ids are 404, more than MAX_ZIP_CODES codes in a ZIP a 400), then a
 * job renders the files one by one into a ZIP stored in pieces, with manifest.csv, or writes the
 * list's CSV (format csv: ListCsvService) into pieces; either is kept 24 h.
 */
@Injectable()
export class ExportsService {
  constructor(
    private readonly jobs: JobQueueRepository,
    private readonly worker: JobWorker,
    private readonly chunks: ExportsRepository,
    private readonly qrCodes: QrCodesService,
    private readonly folders: FoldersService,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    private readonly listCsv: ListCsvService,
  ) {
    worker.register('export', { run: (run) => this.run(run), keepForMs: KEEP_ZIP_MS });
  }

  get baseUrl(): string {
    return this.qrCodes.origins.baseUrl;
  }

  async submit(accountId: AccountId, dto: CreateExportDto): Promise<JobRecord> {
    const principal = currentRequest()?.principal;
    if (principal && !allows(principal.scopes, 'qrcodes:read'))
      throw new ForbiddenException('This API key lacks the scope qrcodes:read, which an export needs');
    const params = this.checkOptions(dto);
    const total = await this.countSelected(accountId, params);
    if (params.format !== 'csv' && total > MAX_ZIP_CODES) {
      const field = params.filters?.folder_id ? 'folder_id' : 'filters';
      throw new ValidationFailedException([
        {
          field,
          message:
            `the selection holds ${total} codes; a ZIP holds at most ${MAX_ZIP_CODES}: ` +
            'narrow it (folder_id, type, is_dynamic, search, status) or give ids',
        },
      ]);
    }
    if ((await this.jobs.unfinishedCount(accountId, 'export')) >= MAX_UNFINISHED_EXPORTS) {
      throw new HttpException(
        `At most ${MAX_UNFINISHED_EXPORTS} exports may wait or run at once; try again when one has finished`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const id = randomUUID() as JobId;
    await this.database.transaction(async (tx) => {
      await this.jobs.insert(tx, accountId, { id, kind: 'export', params: { ...params }, submittedBy: submittedBy(currentRequest()), total });
      await this.audit.record(tx, {
        accountId,
        action: 'export.create',
        resourceType: 'export',
        resourceId: id,
        after: { format: params.format, codes: total, ...(params.view && { view: params.view }) },
      });
    });
    this.worker.nudge();
    return (await this.jobs.find(accountId, id, 'export'))!;
  }

  async get(accountId: AccountId, id: JobId): Promise<JobRecord> {
    const job = await this.jobs.find(accountId, id, 'export');
    if (!job || (job.expiresAt && job.expiresAt <= new Date())) throw new NotFoundException('Export not found');
    return job;
  }

  /** The finished file's size, type and name, and its pieces, read one at a time as the download streams them. */
  async download(
    accountId: AccountId,
    id: JobId,
  ): Promise<{ bytes: number; contentType: string; fileName: string; pieces: () => AsyncGenerator<Buffer> }> {
    const job = await this.get(accountId, id);
    if (job.status !== 'done') throw new HttpException(`The export is ${job.status}; download it once its status is done`, HttpStatus.CONFLICT);
    const chunks = this.chunks;
    const csv = job.params.format === 'csv';
    return {
      bytes: Number(job.result?.bytes ?? 0),
      contentType: csv ? 'text/csv; charset=utf-8' : 'application/zip',
      fileName: csv ? `qr-codes${job.params.view === 'report' ? '-report' : ''}-${id.slice(0, 8)}.csv` : `qr-codes-${id.slice(0, 8)}.zip`,
      pieces: async function* () {
        for (let seq = 0; ; seq++) {
          const piece = await chunks.chunk(accountId, id, seq);
          if (!piece) return;
          yield piece;
        }
      },
    };
  }

  private checkOptions(dto: CreateExportDto): ExportParams {
    const filters = {
      type: dto.type,
      is_dynamic: dto.is_dynamic,
      folder_id: dto.folder_id,
      search: dto.search,
      status: dto.status,
      sort: dto.sort ?? 'newest',
    };
    const filtered = Object.entries(filters).filter(([name, value]) => value !== undefined && !(name === 'sort' && dto.sort === undefined));
    const errors: FieldError[] = [];
    if (dto.ids && filtered.length > 0) errors.push({ field: filtered[0][0], message: `${filtered[0][0]} cannot be combined with ids` });
    const format = dto.format === 'csv' ? this.checkCsvOptions(dto, errors) : this.checkImageOptions(dto, errors);
    if (errors.length > 0) throw new ValidationFailedException(errors);
    return { ids: dto.ids ? [...new Set(dto.ids.map((id) => id.toLowerCase() as QrCodeId))] : null, filters: dto.ids ? null : filters, ...format };
  }

  /** A ZIP's file options; the CSV's fields are errors. */
  private checkImageOptions(dto: CreateExportDto, errors: FieldError[]): Pick<ExportParams, 'format' | 'size' | 'width_mm' | 'dpi'> {
    for (const field of ['view', 'from', 'to'] as const) {
      if (dto[field] !== undefined) errors.push({ field, message: `${field} goes with format csv` });
    }
    if (dto.size !== undefined && dto.width_mm !== undefined) errors.push({ field: 'width_mm', message: 'give size or width_mm, not both' });
    if (dto.dpi !== undefined && dto.width_mm === undefined) errors.push({ field: 'dpi', message: 'dpi goes with width_mm' });
    const format = dto.format as ExportFileOptions['format'];
    const options: ExportFileOptions = {
      format,
      ...(dto.width_mm !== undefined ? { widthMm: dto.width_mm, dpi: dto.dpi ?? 300 } : { size: dto.size ?? 300 }),
    };
    const pixels = pixelSize(options);
    if (dto.width_mm !== undefined && (pixels < 100 || pixels > 4000)) {
      errors.push({ field: 'width_mm', message: `width_mm ${dto.width_mm} at ${options.dpi} dpi is ${pixels} px; files are 100 to 4000 px` });
    }
    return { format, ...(options.size !== undefined ? { size: options.size } : { width_mm: options.widthMm, dpi: options.dpi }) };
  }

  /** A CSV's view and window (the report's, fixed now); ids and the image options are errors. */
  private checkCsvOptions(dto: CreateExportDto, errors: FieldError[]): Pick<ExportParams, 'format' | 'view' | 'from' | 'to'> {
    if (dto.ids) errors.push({ field: 'ids', message: 'a CSV takes the list filters (folder_id, type, is_dynamic, search, status, sort), not ids' });
    for (const field of IMAGE_OPTIONS) {
      if (dto[field] !== undefined) errors.push({ field, message: `${field} goes with an image format (svg, png, pdf), not csv` });
    }
    const view = dto.view ?? 'import';
    errors.push(...misplacedWindowFields(view, dto));
    if (view !== 'report') return { format: 'csv', view };
    try {
      const window = this.listCsv.window({ from: dto.from, to: dto.to });
      return { format: 'csv', view, from: window.from.toISOString(), to: window.to.toISOString() };
    } catch (error) {
      if (!(error instanceof ValidationFailedException)) throw error;
      errors.push(...error.fieldErrors);
      return { format: 'csv', view };
    }
  }

  /** How many codes the selection holds; another account's ids (or folder) answer 404 naming them. */
  private async countSelected(accountId: AccountId, params: ExportParams): Promise<number> {
    if (params.ids) {
      const owned = await this.qrCodes.ownedAmong(accountId, params.ids);
      const missing = params.ids.flatMap((id, index) => (owned.has(id) ? [] : [{ field: `ids[${index}]`, message: `no QR code ${id} among yours` }]));
      if (missing.length > 0) throw Object.assign(new NotFoundException('QR code not found'), { fieldErrors: missing.slice(0, 20) });
      return params.ids.length;
    }
    const folderId = params.filters!.folder_id;
    if (folderId && !(await this.folders.ownedAmong(accountId, [folderId])).has(folderId)) {
      throw Object.assign(new NotFoundException('Folder not found'), { fieldErrors: [NOT_YOUR_FOLDER] });
    }
    const { pagination } = await this.qrCodes.list(accountId, { ...params.filters!, page: 1, limit: 1 });
    return pagination.total;
  }

  private run(run: JobRun): Promise<Record<string, unknown>> {
    const params = run.job.params as unknown as ExportParams;
    if (params.format !== 'csv') return this.runZip(run, params);
    const window = params.view === 'report' ? this.listCsv.window({ from: params.from, to: params.to }) : null;
    return this.listCsv.write(run, { view: params.view ?? 'import', filters: params.filters!, window });
  }

  /** The ZIP: every file, then the manifest, stored piece by piece (from the start again on a resumed attempt). */
  private async runZip(run: JobRun, params: ExportParams): Promise<Record<string, unknown>> {
    const { job } = run;
    const options: ExportFileOptions = {
      format: params.format as ExportFileOptions['format'],
      size: params.size,
      widthMm: params.width_mm,
      dpi: params.dpi,
    };
    await this.chunks.clearChunks(job.accountId, job.id);
    const zip = new ZipWriter();
    let seq = 0;
    const store = async (all = false) => {
      for (const piece of zip.takePieces(all)) await this.chunks.addChunk(job.accountId, job.id, seq++, piece);
    };
    const manifest = [csvLine(MANIFEST_COLUMNS)];
    let files = 0;
    for await (const codes of this.selected(job.accountId, params)) {
      for (const code of codes) {
        const link = code.isDynamic && code.shortCode ? dynamicUrl(this.qrCodes.origins, code.shortCode, code.domainHostname) : null;
        const file = await renderExportEntry({ id: code.id, text: link ?? code.contentString, style: code.style, name: code.name }, options);
        const name = zipEntryName(code.name, code.id, file.extension);
        zip.add(name, file.bytes);
        manifest.push(csvLine([code.id, code.name, name, code.shortCode ?? '', link ?? '']));
        files++;
        await store();
        if (files % PROGRESS_EVERY === 0) await run.progress(files);
      }
    }
    zip.add('manifest.csv', Buffer.from(manifest.join('')));
    zip.end();
    await store(true);
    await run.progress(files, files);
    return { files, bytes: zip.bytes, pieces: seq };
  }

  private async *selected(accountId: AccountId, params: ExportParams): AsyncGenerator<QrCodeRecord[]> {
    if (params.ids) {
      for (let start = 0; start < params.ids.length; start += BATCH) yield this.qrCodes.findAmong(accountId, params.ids.slice(start, start + BATCH));
      return;
    }
    yield* this.qrCodes.eachMatching(accountId, params.filters!, BATCH);
  }
}
