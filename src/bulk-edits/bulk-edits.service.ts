import { HttpException, HttpStatus, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { JobId, QrCodeId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { Database } from '../infra/database/database.service';
import { currentRequest } from '../infra/http/request-context';
import { submittedBy } from '../infra/jobs/job';
import { type JobRecord, JobQueueRepository } from '../infra/jobs/job-queue.repository';
import { type JobRun, JobWorker } from '../infra/jobs/job-worker.service';
import type { UpdateQrCodeDto } from '../qrcodes/dto/update-qr-code.dto';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import { type ListFilterQuery, QrCodesService } from '../qrcodes/qr-codes.service';
import { checkUtm } from '../smart-links/settings/check-link-settings';
import { addResult, type BulkOutcome, emptyOutcome } from './bulk-outcome';
import { type ChangeSet, type ChangeSetInput, checkChangeSet, planChange, type PlannableCode, type PlannedUpdate } from './change-set';
import type { BulkDeleteDto, BulkFilterDto, BulkSelectionDto, BulkUpdateDto } from './dto/bulk-edit.dto';

/** At most this many matched codes are changed within the request (200); more become a job (202). */
export const MAX_CODES_IN_REQUEST = 100;
/** A bulk edit's job (its result) is kept this long after it ends. */
const KEEP_RESULT_MS = 7 * 86_400_000;
/** Bulk edits an account may have waiting or running at once; more answer 429. */
const MAX_UNFINISHED = 10;
const BATCH = 500;
const PROGRESS_EVERY = 50;
/**
 * Codes changed at once: each is its own transaction (the single update's), so a few overlap their
 * round trips; few enough to leave most of the write pool (6, POOL_SIZES) to the API.
 */
const CONCURRENT_CODES = 3;

/** What a bulk edit's job keeps of its request. */
interface BulkParams {
  mode: 'update' | 'delete';
  ids: QrCodeId[] | null;
  filter: ListFilterQuery | null;
  change: ChangeSetInput | null;
}

/** The answer: the outcome (200), or the job doing it (202). */
export type BulkAnswer = { kind: 'done'; id: JobId | null; outcome: BulkOutcome; dryRun: boolean } | { kind: 'job'; job: JobRecord };

type CodeResult = Parameters<typeof addResult>[1];

/**
 * Bulk edits by filter or ids (docs/tags-and-bulk-edits.md#bulk-edits): the selection is the list's
 * own filters (or ids), the change set is checked once, then each code is changed through the
 * single update (or delete) of the QR code service, so it gets its audit entry, history version and
 * webhook as if changed by itself; the request's id rides along (a job runs in its request's
 * context, its key's folders too). Up to MAX_CODES_IN_REQUEST codes are changed within the request.
 */
@Injectable()
export class BulkEditsService {
  constructor(
    private readonly qrCodes: QrCodesService,
    private readonly jobs: JobQueueRepository,
    private readonly worker: JobWorker,
    private readonly database: Database,
  ) {
    worker.register('bulk-edit', { run: (run) => this.run(run), keepForMs: KEEP_RESULT_MS });
  }

  async update(accountId: AccountId, dto: BulkUpdateDto, dryRun: boolean): Promise<BulkAnswer> {
    const selection = checkSelection(dto);
    const check = checkChangeSet({ set: { ...dto.set }, add_tags: dto.add_tags, remove_tags: dto.remove_tags, replace_target: dto.replace_target });
    const errors = [...selection.errors, ...(check.ok ? [] : check.errors), ...(await this.setProblems(accountId, dto.set))];
    if (errors.length > 0) throw new ValidationFailedException(errors);
    const params: BulkParams = { mode: 'update', ...selection.value, change: changeInput(dto) };
    return this.perform(accountId, params, dryRun);
  }

  async delete(accountId: AccountId, dto: BulkDeleteDto, dryRun: boolean): Promise<BulkAnswer> {
    const selection = checkSelection(dto);
    if (selection.errors.length > 0) throw new ValidationFailedException(selection.errors);
    return this.perform(accountId, { mode: 'delete', ...selection.value, change: null }, dryRun);
  }

  async get(accountId: AccountId, id: JobId, mode: BulkParams['mode']): Promise<JobRecord> {
    const job = await this.jobs.find(accountId, id, 'bulk-edit');
    if (!job || job.params.mode !== mode || (job.expiresAt && job.expiresAt <= new Date())) throw new NotFoundException('Bulk edit not found');
    return job;
  }

  /** Counts the selection; a dry run or a small one is done now, a larger one queued. */
  private async perform(accountId: AccountId, params: BulkParams, dryRun: boolean): Promise<BulkAnswer> {
    const matched = await this.countSelected(accountId, params);
    if (dryRun) return { kind: 'done', id: null, outcome: await this.apply(accountId, params, true), dryRun };
    if (matched <= MAX_CODES_IN_REQUEST) return this.performNow(accountId, params);
    if ((await this.jobs.unfinishedCount(accountId, 'bulk-edit')) >= MAX_UNFINISHED) {
      throw new HttpException(
        `At most ${MAX_UNFINISHED} bulk edits may wait or run at once; try again when one has finished`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const id = randomUUID() as JobId;
    await this.database.transaction((tx) =>
      this.jobs.insert(tx, accountId, { id, kind: 'bulk-edit', params: { ...params }, submittedBy: submittedBy(currentRequest()), total: matched }),
    );
    this.worker.nudge();
    return { kind: 'job', job: (await this.jobs.find(accountId, id, 'bulk-edit'))! };
  }

  /** A real edit done within the request, recorded as a job already done (its result read back by its id like a job's). */
  private async performNow(accountId: AccountId, params: BulkParams): Promise<BulkAnswer> {
    const outcome = await this.apply(accountId, params, false);
    const id = randomUUID() as JobId;
    const now = new Date();
    const job = { id, kind: 'bulk-edit' as const, params: { ...params }, submittedBy: submittedBy(currentRequest()), total: outcome.matched };
    await this.database.transaction((tx) =>
      this.jobs.insertDone(tx, accountId, job, { result: { ...outcome }, now, expiresAt: new Date(now.getTime() + KEEP_RESULT_MS) }),
    );
    return { kind: 'done', id, outcome, dryRun: false };
  }

  /** The job: the same walk as a request's, with its progress reported (which renews its lease). */
  private async run(run: JobRun): Promise<Record<string, unknown>> {
    const params = run.job.params as unknown as BulkParams;
    const outcome = await this.apply(run.job.accountId, params, false, async (done) => {
      if (done % PROGRESS_EVERY === 0) await run.progress(done);
    });
    await run.progress(outcome.matched, outcome.matched);
    return { ...outcome };
  }

  /** Walks the selection and changes (or, dry, plans) each code; `progress` after each. */
  private async apply(accountId: AccountId, params: BulkParams, dryRun: boolean, progress?: (done: number) => Promise<void>): Promise<BulkOutcome> {
    const outcome = emptyOutcome();
    const change = params.change ? checkChangeSet(params.change) : null;
    if (change && !change.ok) throw new ValidationFailedException(change.errors);
    const one = (code: QrCodeRecord) => (change ? this.updateOne(accountId, code, change.change, dryRun) : this.deleteOne(accountId, code, dryRun));
    for await (const codes of this.selected(accountId, params)) {
      for (let start = 0; start < codes.length; start += CONCURRENT_CODES) {
        const results = await Promise.all(codes.slice(start, start + CONCURRENT_CODES).map(one));
        for (const result of results) {
          addResult(outcome, result);
          if (progress) await progress(outcome.matched);
        }
      }
    }
    return outcome;
  }

  private async updateOne(accountId: AccountId, code: QrCodeRecord, change: ChangeSet, dryRun: boolean): Promise<CodeResult> {
    const plan = planChange(plannable(code), change);
    if (plan.kind === 'unchanged') return plan;
    if (plan.kind === 'refused') return { kind: 'failed', id: code.id, errors: plan.errors };
    const item = { id: code.id, name: code.name, before: plan.before, after: plan.after };
    if (dryRun) return { kind: 'changed', item };
    return this.refusalAsResult(code.id, async () => {
      await this.qrCodes.change(accountId, code.id, toUpdateDto(plan.update));
      return { kind: 'changed', item };
    });
  }

  private async deleteOne(accountId: AccountId, code: QrCodeRecord, dryRun: boolean): Promise<CodeResult> {
    const item = { id: code.id, name: code.name };
    if (dryRun) return { kind: 'changed', item };
    return this.refusalAsResult(code.id, async () => {
      await this.qrCodes.delete(accountId, code.id);
      return { kind: 'changed', item };
    });
  }

  /** A code the update refuses (its rules, a short code taken on the new domain, deleted meanwhile) fails alone; anything else fails the edit. */
  private async refusalAsResult(id: QrCodeId, work: () => Promise<CodeResult>): Promise<CodeResult> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof HttpException) || error.getStatus() >= 500) throw error;
      const fieldErrors = (error as HttpException & { fieldErrors?: FieldError[] }).fieldErrors;
      return { kind: 'failed', id, errors: fieldErrors ?? [{ field: 'id', message: error.message }] };
    }
  }

  /** How many codes the selection holds; another account's ids (or folder) answer 404 naming them, a bad tag name 400 naming `filter.tag[i]`. */
  private async countSelected(accountId: AccountId, params: BulkParams): Promise<number> {
    if (params.ids) {
      const owned = await this.qrCodes.ownedAmong(accountId, params.ids);
      const missing = params.ids.flatMap((id, index) => (owned.has(id) ? [] : [{ field: `ids[${index}]`, message: `no QR code ${id} among yours` }]));
      if (missing.length > 0) throw Object.assign(new NotFoundException('QR code not found'), { fieldErrors: missing.slice(0, 20) });
      return params.ids.length;
    }
    const filter = params.filter!;
    const targets = await this.qrCodes.checkTargets(accountId, { folder_id: filter.folder_id });
    if (targets.length > 0) throw Object.assign(new NotFoundException('Folder not found'), { fieldErrors: prefixed('filter', targets) });
    try {
      return (await this.qrCodes.list(accountId, { ...filter, page: 1, limit: 1 })).pagination.total;
    } catch (error) {
      if (error instanceof ValidationFailedException) throw new ValidationFailedException(prefixed('filter', error.fieldErrors));
      throw error;
    }
  }

  private async *selected(accountId: AccountId, params: BulkParams): AsyncGenerator<QrCodeRecord[]> {
    if (params.ids) {
      for (let start = 0; start < params.ids.length; start += BATCH) yield this.qrCodes.findAmong(accountId, params.ids.slice(start, start + BATCH));
      return;
    }
    yield* this.qrCodes.eachMatching(accountId, params.filter!, BATCH);
  }

  /** What `set` asks that the change set's rules leave to the update's: UTM fields, a future expiry, a folder and domain of the account's. */
  private async setProblems(accountId: AccountId, set: BulkUpdateDto['set']): Promise<FieldError[]> {
    if (!set) return [];
    const errors: FieldError[] = [];
    if (set.utm !== undefined && set.utm !== null) {
      const utm = checkUtm(set.utm);
      if (!utm.ok) errors.push(...utm.errors);
    }
    if (typeof set.expires_at === 'string' && new Date(set.expires_at).getTime() <= Date.now()) {
      errors.push({ field: 'expires_at', message: 'expires_at must be in the future' });
    }
    errors.push(...(await this.qrCodes.checkTargets(accountId, { folder_id: set.folder_id, domain_id: set.domain_id })));
    return prefixed('set', errors);
  }
}

/** Exactly one of filter and ids; the filter as the list reads it (oldest first: a job's walk meets codes in the order they were made). */
function checkSelection(dto: BulkSelectionDto): { errors: FieldError[]; value: Pick<BulkParams, 'ids' | 'filter'> } {
  const errors: FieldError[] = [];
  if (dto.filter && dto.ids) errors.push({ field: 'ids', message: 'give filter or ids, not both' });
  if (!dto.filter && !dto.ids) errors.push({ field: 'filter', message: 'give filter (the list filters; {} for all your codes) or ids' });
  const ids = dto.ids ? [...new Set(dto.ids.map((id) => id.toLowerCase() as QrCodeId))] : null;
  return { errors, value: { ids, filter: dto.ids ? null : filterQuery(dto.filter ?? {}) } };
}

function filterQuery(filter: BulkFilterDto): ListFilterQuery {
  const { type, is_dynamic, search, status, folder_id, tag, tag_any } = filter;
  return { type, is_dynamic, search, status, folder_id, tag, tag_any, sort: 'oldest' };
}

function changeInput(dto: BulkUpdateDto): ChangeSetInput {
  return {
    ...(dto.set && { set: { ...dto.set } }),
    ...(dto.add_tags !== undefined && { add_tags: dto.add_tags }),
    ...(dto.remove_tags !== undefined && { remove_tags: dto.remove_tags }),
    ...(dto.replace_target && { replace_target: { from: dto.replace_target.from, to: dto.replace_target.to } }),
  };
}

/** Errors of a nested object named by its path (`set.folder_id`), in their messages too where these start with the field. */
const prefixed = (prefix: string, errors: FieldError[]): FieldError[] =>
  errors.map(({ field, message }) => ({ field: `${prefix}.${field}`, message: message.startsWith(field) ? `${prefix}.${message}` : message }));

function plannable(code: QrCodeRecord): PlannableCode {
  return {
    type: code.type,
    isDynamic: code.isDynamic,
    content: code.content,
    status: code.status,
    folderId: code.folderId,
    expiresAt: code.expiresAt,
    domainId: code.domainId,
    utm: code.utm,
    brandKitId: null,
    style: code.style,
    tags: code.tags,
  };
}

/** A code's planned change as the single update's request. */
function toUpdateDto(update: PlannedUpdate): UpdateQrCodeDto {
  return update as UpdateQrCodeDto;
}
