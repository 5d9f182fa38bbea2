import { Injectable, NotFoundException } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import type { Tables } from '../infra/database/tables';
import { actorKeyPrefix } from '../infra/http/request-context';
import { type QrCodeChanged, QrCodeEvents, type RestoreMark } from '../qrcodes/qr-code-events';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { CodeHistoryRepository, type CodeVersionRecord } from './code-history.repository';
import {
  changedFields,
  RESTORED_PASSWORD_HASH,
  restoringUpdate,
  shownFields,
  storedState,
  VERSIONED_FIELDS,
  type VersionedState,
  versionedState,
} from './versioned-state';

/** One entry of a code's history, as the API shows it. */
export interface CodeVersionEntry {
  version: number;
  created_at: string;
  key_prefix: string | null;
  restored_from: number | null;
  /** The changed fields before this version; null for version 1 (the code as created). */
  before: VersionedState | null;
  /** The changed fields as this version set them; for version 1 every versioned field. */
  after: VersionedState;
}

export const versionNotFound = (version: number) => new NotFoundException(`This QR code has no version ${version}`);
const notAVersion = () => new ValidationFailedException([{ field: 'version', message: 'version must be a positive integer' }]);

/**
 * Destination history (docs/statuses-and-lifecycle.md#destination-history): every change of what a
 * code answers is a version, recorded in the change's transaction by listening to QrCodeEvents.
 * Version 1, the code as created, is read from the code itself until its first change writes it,
 * so creates pay nothing. A restore is an update through QrCodesService (its checks, the key's
 * folders, caches, webhooks and audit log) that records itself as a new version.
 */
@Injectable()
export class CodeHistoryService {
  constructor(
    private readonly versions: CodeHistoryRepository,
    private readonly qrCodes: QrCodesService,
    events: QrCodeEvents,
  ) {
    events.inTransaction((tx, change) => this.recordChange(tx, change));
  }

  /** Newest first, one page; `total` is the number of versions (they are numbered 1…total). */
  async page(accountId: AccountId, id: QrCodeId, page: number, limit: number): Promise<{ entries: CodeVersionEntry[]; total: number }> {
    // The code first (404 for another account's code, or one outside the key's folders), then its versions:
    // if none is stored by then, the code read still holds its state at creation.
    const code = await this.qrCodes.findOwned(accountId, id);
    const offset = (page - 1) * limit;
    const rows = await this.versions.newestFirst(accountId, id, offset, limit);
    if (rows.length === 0) {
      const latest = offset === 0 ? undefined : await this.versions.latest(accountId, id);
      return { entries: latest === undefined && offset === 0 ? [firstVersion(code)] : [], total: latest ?? 1 };
    }
    return {
      entries: rows.slice(0, limit).map((row, index) => toEntry(row, rows[index + 1])),
      total: rows[0].version + offset,
    };
  }

  /**
   * Sets the code's versioned fields back to those of `version`, as an update of the fields that
   * differ; answers the code as it is then and its version (the new one, or the current one when
   * nothing differed). `version` null: the path named no version number (400, once the code is found).
   */
  async restore(accountId: AccountId, id: QrCodeId, version: number | null) {
    const code = await this.qrCodes.findOwned(accountId, id);
    if (version === null) throw notAVersion();
    const current = versionedState(code);
    const target = await this.stateOf(accountId, code, version);
    const changes = restoringUpdate(current, target);
    if (Object.keys(changes).length === 0) {
      return { version: (await this.versions.latest(accountId, id)) ?? 1, qrcode: await this.qrCodes.get(accountId, id) };
    }
    // Carried on the update's event to recordChange, which notes the version it recorded.
    const restoring: RestoreMark = { from: version };
    const { [RESTORED_PASSWORD_HASH]: passwordHash, ...fields } = changes;
    const options = { mergeContent: false, ...(passwordHash !== undefined && { restoredPasswordHash: passwordHash as string | null }) };
    const qrcode = await this.qrCodes.update(accountId, id, fields, { ...options, restoring });
    return { version: restoring.recorded ?? (await this.versions.latest(accountId, id)) ?? 1, qrcode };
  }

  private async stateOf(accountId: AccountId, code: QrCodeRecord, version: number): Promise<VersionedState> {
    const stored = await this.versions.find(accountId, code.id, version);
    if (stored) return storedState(stored.state);
    // Until its first change a code's only version is 1, and that is the code as it is.
    if (version === 1 && (await this.versions.latest(accountId, code.id)) === undefined) return versionedState(code);
    throw versionNotFound(version);
  }

  /** In the change's transaction: an update that changed a versioned field appends a version. */
  private async recordChange(tx: Tables, change: QrCodeChanged): Promise<void> {
    // A create's version 1 is the code itself until its first change; a delete takes the history with it (FK cascade).
    if (change.kind !== 'updated') return;
    const before = versionedState(change.before);
    const after = versionedState(change.code);
    if (changedFields(before, after).length === 0) return;
    const { restoring } = change;
    const version = await this.versions.append(tx, change.accountId, change.codeId, {
      first: { createdAt: change.before.createdAt, keyPrefix: change.before.createdKeyPrefix, state: before },
      next: { keyPrefix: actorKeyPrefix(), restoredFrom: restoring?.from ?? null, state: after },
    });
    if (restoring) restoring.recorded = version;
  }
}

/** Version 1 read from a code that has not changed since its creation. */
function firstVersion(code: QrCodeRecord): CodeVersionEntry {
  const state = versionedState(code);
  return {
    version: 1,
    created_at: code.createdAt.toISOString(),
    key_prefix: code.createdKeyPrefix,
    restored_from: null,
    before: null,
    after: shownFields(state, Object.keys(state)),
  };
}

/** A stored version, with the fields it changed from the version before it (`previous`, absent for version 1). */
function toEntry(row: CodeVersionRecord, previous: CodeVersionRecord | undefined): CodeVersionEntry {
  const state = storedState(row.state);
  const base = { version: row.version, created_at: row.createdAt.toISOString(), key_prefix: row.keyPrefix, restored_from: row.restoredFrom };
  if (!previous)
    return {
      ...base,
      before: null,
      after: shownFields(
        state,
        VERSIONED_FIELDS.map((field) => field.name),
      ),
    };
  const previousState = storedState(previous.state);
  const changed = changedFields(previousState, state);
  return { ...base, before: shownFields(previousState, changed), after: shownFields(state, changed) };
}
