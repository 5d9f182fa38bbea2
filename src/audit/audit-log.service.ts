import { Inject, Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import { CLOCK, type Clock } from '../common/time/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { Tables } from '../infra/database/tables';
import { HOUR_MS, JobRunner } from '../infra/jobs/job-runner.service';
import { type QrCodeChanged, QrCodeEvents } from '../qrcodes/qr-code-events';
import { auditedCode, SECRET_CODE_FIELDS } from './audited-code';
import { AuditRecorder } from './audit-recorder';
import { type AuditEntryRecord, type AuditFilter, AuditLogRepository } from './audit-log.repository';

/** How many entries one statement of the hourly retention sweep deletes at most. */
const SWEEP_BATCH = 5000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The audit log's rules (docs/api-keys-and-security.md#audit-log): one entry per write through the
 * API, in the write's transaction, naming the key that made it and the fields it changed. Code
 * writes come as QrCodeEvents (a bulk create is one entry with the ids it made); folders, webhooks
 * and keys call the AuditTrail port. Old entries are swept after AUDIT_RETENTION_DAYS, hourly (a
 * periodic task of the job runner).
 */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly entries: AuditLogRepository,
    private readonly recorder: AuditRecorder,
    private readonly codeEvents: QrCodeEvents,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    runner: JobRunner,
  ) {
    this.codeEvents.inTransaction((tx, change) => this.recordCodeChange(tx, change));
    runner.periodic({ name: 'audit-retention', everyMs: HOUR_MS, run: async () => void (await this.sweep()) });
  }

  page(accountId: AccountId, filter: AuditFilter, limit: number): Promise<AuditEntryRecord[]> {
    return this.entries.page(accountId, filter, limit);
  }

  /** Deletes entries older than the retention, a bounded batch per statement; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.auditRetentionDays * DAY_MS);
    // Found once per sweep: the entries below it only get fewer while it runs.
    const keptFrom = await this.entries.firstSeqFrom(cutoff);
    let total = 0;
    for (;;) {
      const deleted = await this.entries.deleteOldest(keptFrom, SWEEP_BATCH);
      total += deleted;
      if (deleted < SWEEP_BATCH) return total;
    }
  }

  private recordCodeChange(tx: Tables, change: QrCodeChanged): Promise<void> {
    const base = { accountId: change.accountId, resourceType: 'qrcode' as const, secretFields: SECRET_CODE_FIELDS };
    switch (change.kind) {
      case 'created':
        return change.bulk
          ? this.recorder.record(tx, { ...base, action: 'qrcode.bulk_create', resourceId: null, ids: change.codes.map((code) => code.id) })
          : this.recorder.record(tx, { ...base, action: 'qrcode.create', resourceId: change.codes[0].id, after: auditedCode(change.codes[0]) });
      case 'updated':
        return this.recorder.record(tx, {
          ...base,
          action: 'qrcode.update',
          resourceId: change.codeId,
          before: auditedCode(change.before),
          after: auditedCode(change.code),
        });
      case 'deleted':
        return this.recorder.record(tx, { ...base, action: 'qrcode.delete', resourceId: change.codeId, before: auditedCode(change.code) });
    }
  }
}
