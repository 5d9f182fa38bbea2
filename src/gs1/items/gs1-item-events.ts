import { Injectable } from '@nestjs/common';
import type { AccountId } from '../../common/ids/account-id';
import { ChangeEvents } from '../../infra/events/change-events';
import type { Gs1ItemView } from './dto/gs1-item.dto';

/**
 * What happened to an account's GS1 item, with the item as the API shows it (after the change; a
 * deleted item as it was): `updated` names the fields the request changed.
 */
export type Gs1ItemChanged =
  | { kind: 'created' | 'deleted'; accountId: AccountId; item: Gs1ItemView }
  | { kind: 'updated'; accountId: AccountId; item: Gs1ItemView; changed: string[] };

/**
 * How the GS1 module tells the modules above it what changed (as QrCodeEvents does for codes):
 * the webhook outbox writes `gs1.item.created`, `gs1.item.updated` and `gs1.item.deleted` in the
 * change's transaction.
 */
@Injectable()
export class Gs1ItemEvents extends ChangeEvents<Gs1ItemChanged> {
  constructor() {
    super('Gs1ItemEvents', 'GS1 items');
  }
}
