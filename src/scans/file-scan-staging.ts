import type { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { QrCodeId } from '../common/ids/resource-ids';
import { decodeStagedBatch, encodeStagedBatch, inStoreGroups, rowsMatchHeader, type ScanBatch } from './scan-batch';
import { addCounts, type ScanStaging, type StagedBatchStore } from './scan-staging';

const UNSTORABLE_DIR = 'unstorable';
const ACTIVE = '.spill';
const DRAINING = '.draining';

/**
 * Staging in files under DATA_DIR/scan-spill: used when Redis is not configured or not reachable,
 * and as the last resort at shutdown, so that no served scan is lost when the database is gone
 * (docs/scans-and-privacy.md). Each instance appends to a file of its own (entries are length-
 * prefixed, flushed to disk before `stage` returns); a drain claims files by renaming them (so two
 * instances sharing the folder never take the same one), stores their batches and deletes them.
 * Files left by an earlier run are counted at start and drained like the others.
 */
export class FileScanStaging implements ScanStaging {
  readonly name = 'file';
  private readonly instance = `${hostname().replace(/[^A-Za-z0-9.-]/g, '_')}-${process.pid}-${randomBytes(4).toString('hex')}`;
  private activeFile: string;
  private generation = 0;
  /** Non-bot scans per code in the files this instance knows of (its own, and those found or claimed). */
  private readonly counts = new Map<QrCodeId, number>();
  /** Files whose batches are in `counts`, with the ids of the batches already settled. */
  private readonly known = new Map<string, Set<string>>();

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {
    mkdirSync(this.dir, { recursive: true });
    this.activeFile = this.newActiveFile();
    for (const file of this.spillFiles()) this.count(file, this.readBatches(file));
  }

  available(): boolean {
    return true;
  }

  async stage(batches: ScanBatch[]): Promise<void> {
    this.stageSync(batches);
    return Promise.resolve();
  }

  /** As `stage`, without yielding: the shutdown path's last resort. */
  stageSync(batches: ScanBatch[]): void {
    if (batches.length === 0) return;
    const entries = batches.map((batch) => {
      const body = Buffer.from(encodeStagedBatch(batch));
      return Buffer.concat([Buffer.from(`${body.length}\n`), body]);
    });
    const fd = openSync(this.activeFile, 'a');
    try {
      appendFileSync(fd, Buffer.concat(entries));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.count(this.activeFile, batches);
  }

  async pendingCounts(codeIds: QrCodeId[]): Promise<Map<QrCodeId, number>> {
    const counts = new Map<QrCodeId, number>();
    for (const id of codeIds) {
      const n = this.counts.get(id);
      if (n) counts.set(id, n);
    }
    return Promise.resolve(counts);
  }

  async drain(store: StagedBatchStore, deadline = Infinity): Promise<number> {
    let moved = 0;
    for (const file of this.claimFiles()) {
      if (Date.now() >= deadline) break;
      const settled = this.known.get(file) ?? new Set<string>();
      const all = this.readBatches(file);
      if (!this.known.has(file)) this.count(file, all);
      const waiting = all.filter((batch) => !settled.has(batch.id));
      const damaged = waiting.filter((batch) => !rowsMatchHeader(batch));
      const intact = waiting.filter((batch) => rowsMatchHeader(batch));
      for (const group of inStoreGroups(intact)) {
        const { refused } = await store(group, () => Promise.resolve(this.settle(file, group)));
        await this.setAside(refused);
        moved += group.length;
      }
      if (damaged.length > 0) {
        await this.setAside(damaged);
        this.settle(file, damaged);
      }
      unlinkSync(file);
      this.known.delete(file);
    }
    return moved;
  }

  async setAside(batches: ScanBatch[]): Promise<void> {
    if (batches.length === 0) return;
    const dir = join(this.dir, UNSTORABLE_DIR);
    mkdirSync(dir, { recursive: true });
    for (const batch of batches) {
      this.logger.error(`Scan batch ${batch.id} cannot be stored: set aside in ${join(dir, `${batch.id}.batch`)}`);
      writeFileSync(join(dir, `${batch.id}.batch`), encodeStagedBatch(batch));
    }
    return Promise.resolve();
  }

  private settle(file: string, batches: ScanBatch[]): void {
    const settled = this.known.get(file);
    const fresh = settled ? batches.filter((batch) => !settled.has(batch.id)) : batches;
    for (const batch of fresh) settled?.add(batch.id);
    addCounts(this.counts, fresh, -1);
  }

  private count(file: string, batches: ScanBatch[]): void {
    if (!this.known.has(file)) this.known.set(file, new Set());
    addCounts(this.counts, batches, 1);
  }

  /**
   * Files to drain, each renamed to a name of this instance first (another instance renaming the
   * same file first makes ours fail: it is theirs). This instance's active file is taken too, and
   * a fresh one started for what comes next.
   */
  private claimFiles(): string[] {
    const claimed: string[] = [];
    for (const file of this.spillFiles()) {
      if (file.startsWith(join(this.dir, this.instance)) && file.endsWith(DRAINING)) {
        claimed.push(file);
        continue;
      }
      if (file === this.activeFile) this.activeFile = this.newActiveFile();
      const target = join(this.dir, `${this.instance}-${++this.generation}${DRAINING}`);
      try {
        renameSync(file, target);
      } catch {
        continue;
      }
      const settled = this.known.get(file);
      if (settled) {
        this.known.delete(file);
        this.known.set(target, settled);
      }
      claimed.push(target);
    }
    return claimed;
  }

  private spillFiles(): string[] {
    return readdirSync(this.dir)
      .filter((name) => name.endsWith(ACTIVE) || name.endsWith(DRAINING))
      .map((name) => join(this.dir, name));
  }

  private newActiveFile(): string {
    return join(this.dir, `${this.instance}-${++this.generation}${ACTIVE}`);
  }

  /** The batches of a file; a truncated or unreadable tail (a crash during a write) is logged and skipped. */
  private readBatches(file: string): ScanBatch[] {
    let data: Buffer;
    try {
      data = readFileSync(file);
    } catch {
      return [];
    }
    const batches: ScanBatch[] = [];
    let at = 0;
    while (at < data.length) {
      const newline = data.indexOf(0x0a, at);
      const length = newline < 0 ? NaN : Number(data.subarray(at, newline).toString('ascii'));
      if (!Number.isInteger(length) || newline + 1 + length > data.length) {
        this.logger.error(`Scan spill file ${file} ends with an unreadable entry (${data.length - at} bytes); it is skipped`);
        break;
      }
      try {
        batches.push(decodeStagedBatch(data.subarray(newline + 1, newline + 1 + length)));
      } catch (error) {
        this.logger.error(`Scan spill file ${file} holds an entry it cannot read (${(error as Error).message}); it is skipped`);
      }
      at = newline + 1 + length;
    }
    return batches;
  }
}
