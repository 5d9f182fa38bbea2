import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { CLOCK, type Clock } from '../../common/time/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { HOUR_MS, JobRunner } from '../../infra/jobs/job-runner.service';
import { type CodesCutoff, ClickHouseRetentionRepository } from '../clickhouse/clickhouse-retention.repository';
import { type ScanPartition, ScanRetentionRepository } from './scan-retention.repository';

const DAY_MS = 24 * HOUR_MS;
/** Months created ahead of the current one: a month's partition exists well before its first scan. */
export const MONTHS_AHEAD = 2;
/**
 * Visitor sets are needed for today and yesterday (migration 20261127090000); one day more is kept,
 * so an instance whose clock runs a little behind never finds yesterday's set gone.
 */
const VISITOR_SET_DAYS = 3;
/** Rows one maintenance statement deletes at most (each its own short transaction). */
export const RETENTION_BATCH_ROWS = 10_000;
/** Codes per scan_rollups_remove call. */
const CODES_PER_ROLLUP_REMOVAL = 500;
/** A month's drop that could not get its lock is tried again this often within a step, then at the next one. */
const DROP_ATTEMPTS = 5;
const DROP_RETRY_MS = 2000;

/** What one maintenance step did (logged; read by tests). */
export interface ScanMaintenanceReport {
  monthsCreated: string[];
  visitorSetRowsDeleted: number;
  /** The deployment's retention, when it ran this step: its cutoff, the months dropped, the edge scans and rollup rows deleted. */
  deploymentCutoff: Date | null;
  partitionsDropped: string[];
  edgeScansDeleted: number;
  rollupRowsDeleted: number;
  /** Per-code retention: scans deleted, codes whose rollups before their cutoff were removed. */
  codeScansDeleted: number;
  codesTrimmed: number;
  clickhouseMonthsDropped: string[];
  clickhouseCodeDeletion: boolean;
  /** The parts that failed (each logged as a warning, tried again at the next step). */
  failed: string[];
}

/** The start of the UTC day of `at`. */
export function utcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** The cutoff of a retention of `days` days: the start of the UTC day that many days before today. Rollup days stay whole. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(utcDay(now).getTime() - days * DAY_MS);
}

const isoDay = (day: Date) => day.toISOString().slice(0, 10);
const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

/**
 * Scan maintenance (docs/scans-and-privacy.md#retention), a step every hour, once per cluster (a
 * periodic task of the job runner, docs/architecture.md#jobs); should two run at once (a run taken
 * over from an instance that hangs), it is harmless (month creation is serialised in the database,
 * deletes only delete):
 *
 * 1. the month partitions of scan_events for this month and the next two (UTC);
 * 2. the visitor sets of days a batch no longer adds to;
 * 3. with SCAN_RETENTION_DAYS, once per UTC day: months entirely before the cutoff dropped, the
 *    cutoff's month and the default partition rid of their older rows, rollups of older days deleted;
 * 4. codes with a retention of their own: their older scans and rollups deleted, nothing else;
 * 5. with ClickHouse, its copy likewise: whole months dropped, codes' older scans deleted (best effort).
 *
 * Deletes go in bounded rounds, each its own short transaction; a part that fails is logged and
 * tried again at the next step.
 */
@Injectable()
export class ScanRetention {
  private readonly logger = new Logger('ScanRetention');
  /** The run under way must stop early (shutdown, or its lease was lost). */
  private stopping: () => boolean = () => false;
  /** The deployment cutoff this instance last applied in full (the window moves once a day). */
  private appliedCutoff: string | null = null;

  constructor(
    private readonly scans: ScanRetentionRepository,
    private readonly clickhouse: ClickHouseRetentionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() runner?: JobRunner,
  ) {
    runner?.periodic({
      name: 'scan-maintenance',
      everyMs: HOUR_MS,
      run: async (run) => {
        this.stopping = run.stopRequested;
        await this.step();
        return run.stopRequested() ? 'cut-short' : undefined;
      },
    });
  }

  /** One maintenance step; `batchRows` bounds each delete statement. */
  async step(batchRows = RETENTION_BATCH_ROWS): Promise<ScanMaintenanceReport> {
    const now = this.clock.now();
    const report: ScanMaintenanceReport = {
      monthsCreated: [],
      visitorSetRowsDeleted: 0,
      deploymentCutoff: null,
      partitionsDropped: [],
      edgeScansDeleted: 0,
      rollupRowsDeleted: 0,
      codeScansDeleted: 0,
      codesTrimmed: 0,
      clickhouseMonthsDropped: [],
      clickhouseCodeDeletion: false,
      failed: [],
    };
    await this.part(report, 'months ahead', () => this.createMonthsAhead(now, report));
    await this.part(report, 'visitor sets', async () => {
      const keptFrom = new Date(utcDay(now).getTime() - (VISITOR_SET_DAYS - 1) * DAY_MS);
      report.visitorSetRowsDeleted = await this.scans.deleteVisitorSetsBefore(isoDay(keptFrom), batchRows, this.stopping);
    });
    const days = this.config.scanRetentionDays;
    if (days !== undefined) {
      const cutoff = retentionCutoff(now, days);
      if (this.appliedCutoff !== isoDay(cutoff)) {
        report.deploymentCutoff = cutoff;
        const failedBefore = report.failed.length;
        await this.part(report, 'deployment retention', () => this.applyDeploymentRetention(cutoff, batchRows, report));
        if (this.clickhouse.configured)
          await this.part(report, 'ClickHouse months', async () => {
            report.clickhouseMonthsDropped = await this.clickhouse.dropMonthsBefore(cutoff);
          });
        if (report.failed.length === failedBefore && !this.stopping()) this.appliedCutoff = isoDay(cutoff);
      }
    }
    await this.part(report, 'per-code retention', () => this.applyCodeRetention(now, batchRows, report));
    this.logReport(report);
    return report;
  }

  private async createMonthsAhead(now: Date, report: ScanMaintenanceReport): Promise<void> {
    for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead++) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
      if (await this.scans.ensureMonth(month)) report.monthsCreated.push(`scan_events_p${month.toISOString().slice(0, 7).replace('-', '')}`);
    }
  }

  private async applyDeploymentRetention(cutoff: Date, batchRows: number, report: ScanMaintenanceReport): Promise<void> {
    const cutoffMonth = monthStart(cutoff);
    const partitions = await this.scans.partitions();
    const failures: string[] = [];
    for (const partition of partitions.filter((p) => p.month && p.month < cutoffMonth)) {
      if (await this.dropWithRetries(partition)) report.partitionsDropped.push(partition.name);
      else failures.push(partition.name);
    }
    const edges = partitions.filter((p) => p.month === null || (p.month.getTime() === cutoffMonth.getTime() && cutoff > cutoffMonth));
    for (const partition of edges) report.edgeScansDeleted += await this.scans.deleteScansBefore(partition, cutoff, batchRows, this.stopping);
    report.rollupRowsDeleted = await this.scans.deleteRollupsBefore(isoDay(cutoff), batchRows, this.stopping);
    if (failures.length > 0) throw new Error(`${failures.join(', ')} not dropped: the lock on scan_events was not granted in time`);
  }

  /** Drops a month, trying again a few times when its lock is not granted in time (a long transaction on scan_events). */
  private async dropWithRetries(partition: ScanPartition): Promise<boolean> {
    for (let attempt = 1; attempt <= DROP_ATTEMPTS && !this.stopping(); attempt++) {
      try {
        await this.scans.dropPartition(partition);
        return true;
      } catch (error) {
        this.logger.debug(`Dropping ${partition.name} failed (attempt ${attempt}): ${(error as Error).message}`);
        if (attempt < DROP_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, DROP_RETRY_MS));
      }
    }
    return false;
  }

  private async applyCodeRetention(now: Date, batchRows: number, report: ScanMaintenanceReport): Promise<void> {
    const deploymentDays = this.config.scanRetentionDays ?? Infinity;
    const byDays = new Map<number, QrCodeId[]>();
    // A retention at least as long as the deployment's has nothing left to delete.
    for (const { codeId, days } of await this.scans.codesWithRetention())
      if (days < deploymentDays) byDays.set(days, [...(byDays.get(days) ?? []), codeId]);
    const cutoffs: CodesCutoff[] = [];
    for (const [days, codeIds] of byDays) {
      const cutoff = retentionCutoff(now, days);
      cutoffs.push({ codeIds, before: cutoff });
      for (const codeId of codeIds) {
        if (this.stopping()) return;
        report.codeScansDeleted += await this.scans.deleteCodeScansBefore(codeId, cutoff, batchRows, this.stopping);
      }
      for (let start = 0; start < codeIds.length; start += CODES_PER_ROLLUP_REMOVAL) {
        const chunk = codeIds.slice(start, start + CODES_PER_ROLLUP_REMOVAL);
        await this.scans.removeCodeRollupsBefore(chunk, isoDay(cutoff));
        report.codesTrimmed += chunk.length;
      }
    }
    if (this.clickhouse.configured && cutoffs.length > 0)
      await this.part(report, 'ClickHouse per-code retention', async () => {
        report.clickhouseCodeDeletion = await this.clickhouse.deleteCodeScansBefore(cutoffs);
      });
  }

  private async part(report: ScanMaintenanceReport, name: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      report.failed.push(name);
      this.logger.warn(`Scan maintenance (${name}) failed, tried again at the next step: ${(error as Error).message}`);
    }
  }

  private logReport(report: ScanMaintenanceReport): void {
    const done = [
      report.monthsCreated.length > 0 && `created ${report.monthsCreated.join(', ')}`,
      report.partitionsDropped.length > 0 && `dropped ${report.partitionsDropped.join(', ')}`,
      report.edgeScansDeleted > 0 && `deleted ${report.edgeScansDeleted} scans before ${report.deploymentCutoff?.toISOString()}`,
      report.rollupRowsDeleted > 0 && `deleted ${report.rollupRowsDeleted} rollup rows`,
      report.codeScansDeleted > 0 && `deleted ${report.codeScansDeleted} scans of codes with their own retention`,
      report.clickhouseMonthsDropped.length > 0 && `dropped ClickHouse months ${report.clickhouseMonthsDropped.join(', ')}`,
      report.clickhouseCodeDeletion && 'asked ClickHouse to delete the older scans of codes with their own retention',
    ].filter(Boolean);
    if (done.length > 0) this.logger.log(`Scan maintenance: ${done.join('; ')}`);
  }
}
