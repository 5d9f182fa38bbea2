import { Injectable } from '@nestjs/common';
import type { ShareLinkId } from '../common/ids/resource-ids';
import { VisitorHasher } from '../scans/visitor-hash';
import { signToken, tokenRecordId, tokenSigned } from './signed-token';

const PURPOSE = 'share-link';

/** Stats pages' tokens: the link's id signed with a key derived from the deployment's one secret. */
@Injectable()
export class ShareTokens {
  private key?: Buffer;

  constructor(private readonly secrets: VisitorHasher) {}

  sign(id: ShareLinkId): string {
    return signToken(id, this.signingKey(), PURPOSE);
  }

  /** The link id of a token this deployment signed; null for anything else. */
  read(token: string): ShareLinkId | null {
    return tokenSigned(token, this.signingKey(), PURPOSE) ? (tokenRecordId(token) as ShareLinkId) : null;
  }

  private signingKey(): Buffer {
    this.key ??= this.secrets.derivedKey('share-link-token');
    return this.key;
  }
}
