import { ForbiddenException, HttpException, HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { allows } from '../common/auth/scopes';
import type { AccountId } from '../common/ids/account-id';
import type { JobId, QrCodeId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { FoldersService, NOT_YOUR_FOLDER } from '../folders/folders.service';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import { currentRequest, runInRequestContext } from '../infra/http/request-context';
import { collectGarbage } from '../common/memory/garbage-collector';
import { submittedBy } from '../infra/jobs/job';
import { type JobRecord, JobQueueRepository } from '../infra/jobs/job-queue.repository';
import { type JobRun, JobWorker } from '../infra/jobs/job-worker.service';
import { csvLine, csvRowOf, QR_CODE_CSV_COLUMNS } from '../qrcodes/csv/qr-code-csv';
import { dynamicUrl } from '../qrcodes/qr-code.representation';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import { type ListFilterQuery, QrCodesService } from '../qrcodes/qr-codes.service';
import { type CreateExportDto, MAX_ZIP_CODES } from './dto/export.dto';
import { type ExportFileOptions, pixelSize, renderExportEntry } from './export-entry';
import { ExportsRepository } from './exports.repository';
import { ZipWriter, zipEntryName } from './zip-writer';

/** An export's ZIP is kept this long after it is done. */
export const KEEP_ZIP_MS = 24 * 3600_000;
/** Exports and imports an account may have waiting or running at once, each; more answer 429. */
const MAX_UNFINISHED_EXPORTS = 10;
const PROGRESS_EVERY = 50;
const BATCH = 200;
/** Codes read per query of the CSV export. */
const CSV_BATCH = 1000;
/**
 * CSV written between two full collections. A batch is garbage once written, but it outlives two
 * minor collections (the query's result arrives over many reads, then the socket's write) and lands
 * in the old generation, which V8 let grow by 150-330 MB over a long export before collecting it,
 * while the live heap stayed flat (bench/README.md, "Exports and imports"). A full collection after
 * every 4 MiB (about 48,000 codes; a pause of ~45 ms, which the redirect host in the same process
 * waits out too) keeps the growth to ~75 MB at a million codes; 2 MiB gave ~55 MB for twice the pauses.
 */
const CSV_COLLECT_BYTES = 4 * 1024 * 1024;
const MANIFEST_COLUMNS = ['id', 'name', 'file', 'short_code', 'dynamic_url'];

/** What the job keeps of the request. */
interface ExportParams {
  ids: QrCodeId[] | null;
  filters: ListFilterQuery | null;
  format: ExportFileOptions['format'];
  size?: number;
  width_mm?: number;
  dpi?: number;
}

/**
 * ZIP exports (docs/exports-and-imports.md#zip-exports): the selection is checked when the export
 * is asked for (another account's ids are 404, more than MAX_ZIP_CODES codes a 400), then a job
 * renders the files one by one into a ZIP stored in pieces, with manifest.csv, kept 24 h.
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    worker.register('export', { run: (run) => this.run(run), keepForMs: KEEP_ZIP_MS });
  }

  get baseUrl(): string {
    return this.config.baseUrl;
  }

  async submit(accountId: AccountId, dto: CreateExportDto): Promise<JobRecord> {
    const principal = currentRequest()?.principal;
    if (principal && !allows(principal.scopes, 'qrcodes:read'))
      throw new ForbiddenException('This API key lacks the scope qrcodes:read, which an export needs');
    const params = this.checkOptions(dto);
    const total = await this.countSelected(accountId, params);
    if (total > MAX_ZIP_CODES) {
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
        after: { format: params.format, codes: total },
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

  /** The finished ZIP's size and its pieces, read one at a time as the download streams them. */
  async download(accountId: AccountId, id: JobId): Promise<{ bytes: number; fileName: string; pieces: () => AsyncGenerator<Buffer> }> {
    const job = await this.get(accountId, id);
    if (job.status !== 'done') throw new HttpException(`The export is ${job.status}; download it once its status is done`, HttpStatus.CONFLICT);
    const chunks = this.chunks;
    return {
      bytes: Number(job.result?.bytes ?? 0),
      fileName: `qr-codes-${id.slice(0, 8)}.zip`,
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
    const errors: FieldError[] = [];
    if (dto.size !== undefined && dto.width_mm !== undefined) errors.push({ field: 'width_mm', message: 'give size or width_mm, not both' });
    if (dto.dpi !== undefined && dto.width_mm === undefined) errors.push({ field: 'dpi', message: 'dpi goes with width_mm' });
    const filters = {
      type: dto.type,
      is_dynamic: dto.is_dynamic,
      folder_id: dto.folder_id,
      search: dto.search,
      status: dto.status,
      sort: dto.sort ?? 'newest',
    };
    const filtered = Object.entries(filters).filter(([name, value]) => value !== undefined && !(name === 'sort' && dto.sort === undefined));
    if (dto.ids && filtered.length > 0) errors.push({ field: filtered[0][0], message: `${filtered[0][0]} cannot be combined with ids` });
    const options: ExportFileOptions = {
      format: dto.format,
      ...(dto.width_mm !== undefined ? { widthMm: dto.width_mm, dpi: dto.dpi ?? 300 } : { size: dto.size ?? 300 }),
    };
    const pixels = pixelSize(options);
    if (dto.width_mm !== undefined && (pixels < 100 || pixels > 4000)) {
      errors.push({ field: 'width_mm', message: `width_mm ${dto.width_mm} at ${options.dpi} dpi is ${pixels} px; files are 100 to 4000 px` });
    }
    if (errors.length > 0) throw new ValidationFailedException(errors);
    return {
      ids: dto.ids ? [...new Set(dto.ids.map((id) => id.toLowerCase() as QrCodeId))] : null,
      filters: dto.ids ? null : filters,
      format: dto.format,
      ...(options.size !== undefined ? { size: options.size } : { width_mm: options.widthMm, dpi: options.dpi }),
    };
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

  /** The job: every file, then the manifest, into a ZIP stored piece by piece (from the start again on a resumed attempt). */
  private async run(run: JobRun): Promise<Record<string, unknown>> {
    const { job } = run;
    const params = job.params as unknown as ExportParams;
    const options: ExportFileOptions = { format: params.format, size: params.size, widthMm: params.width_mm, dpi: params.dpi };
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

  /**
   * The list as CSV (the import's columns: see qr-code-csv.ts), a batch of codes at a time: the
   * lines are produced as the response is read, so the live memory stays flat however many codes
   * match, and a full collection every CSV_COLLECT_BYTES keeps the process's size flat too.
   * Each batch is read in the context of the request (the key's folders), wherever the stream is pulled from.
   */
  async *csv(accountId: AccountId, query: ListFilterQuery): AsyncGenerator<string> {
    const context = currentRequest();
    const folderNames = new Map((await this.folders.list(accountId)).map((folder) => [folder.id, folder.name]));
    yield csvLine(QR_CODE_CSV_COLUMNS);
    const batches = this.qrCodes.eachMatching(accountId, query, CSV_BATCH);
    let writtenSinceCollection = 0;
    for (;;) {
      const next = context ? await runInRequestContext(context, () => batches.next()) : await batches.next();
      if (next.done) return;
      const lines = next.value.map((code) => csvLine(csvRowOf(code, code.folderId ? (folderNames.get(code.folderId) ?? null) : null))).join('');
      writtenSinceCollection += lines.length;
      if (writtenSinceCollection >= CSV_COLLECT_BYTES) {
        writtenSinceCollection = 0;
        collectGarbage('major');
      }
      yield lines;
    }
  }

  private async *selected(accountId: AccountId, params: ExportParams): AsyncGenerator<QrCodeRecord[]> {
    if (params.ids) {
      for (let start = 0; start < params.ids.length; start += BATCH) yield this.qrCodes.findAmong(accountId, params.ids.slice(start, start + BATCH));
      return;
    }
    yield* this.qrCodes.eachMatching(accountId, params.filters!, BATCH);
  }
}
