import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { JobId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';

/** An export's ZIP, stored in pieces (export_chunks) so that any instance serves the download and a restart keeps it. */
@Injectable()
export class ExportsRepository {
  constructor(private readonly database: Database) {}

  async addChunk(accountId: AccountId, jobId: JobId, seq: number, bytes: Uint8Array): Promise<void> {
    await this.database.write
      .forWholeAccount(accountId)
      .insertInto('export_chunks', [{ job_id: jobId, seq, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }])
      .execute();
  }

  /** Drops the pieces of an earlier attempt (an export restarts from its first file). */
  async clearChunks(accountId: AccountId, jobId: JobId): Promise<void> {
    await this.database.write.forWholeAccount(accountId).deleteFrom('export_chunks').where('job_id', '=', jobId).execute();
  }

  /** The piece number `seq`, or null past the last. */
  async chunk(accountId: AccountId, jobId: JobId, seq: number): Promise<Buffer | null> {
    const row = await this.database.read
      .forAccount(accountId)
      .selectFrom('export_chunks')
      .select('bytes')
      .where('job_id', '=', jobId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    return row ? Buffer.from(row.bytes) : null;
  }
}
