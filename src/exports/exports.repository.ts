import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import { sql } from 'kysely';
import type { JobId, QrCodeId } from '../common/ids/resource-ids';
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

  /** The names of each code's tags among `codeIds`, in the order the code holds them (codes without tags: an empty list). */
  async tagNamesOf(accountId: AccountId, codeIds: readonly QrCodeId[]): Promise<Map<QrCodeId, string[]>> {
    if (codeIds.length === 0) return new Map();
    const account = this.database.read.forAccount(accountId);
    const codes = account.selectFrom('qr_codes').select(['id', 'tag_ids']).where('id', 'in', codeIds);
    const tags = account.selectFrom('tags').select(['id', 'name']);
    const rows = await account.execute(sql<{ id: QrCodeId; names: string[] }>`
      WITH codes AS (${codes}), own_tags AS (${tags})
      SELECT c.id, array(
        SELECT t.name FROM unnest(c.tag_ids) WITH ORDINALITY AS u(tag_id, ord) JOIN own_tags t ON t.id = u.tag_id ORDER BY u.ord
      ) AS names
      FROM codes c`);
    return new Map(rows.map((row) => [row.id, row.names]));
  }
}
