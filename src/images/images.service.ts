import { Inject, Injectable } from '@nestjs/common';
import { AccountId } from '../common/auth/account-id';
import { CACHE, Cache } from '../infra/cache/cache';
import { MetricsService } from '../infra/observability/metrics.service';
import { dynamicUrl } from '../qrcodes/qr-code.representation';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { imageCacheKey } from './image-cache-key';
import { renderQrSvg } from './render/render-qr-svg';
import type { QrStyle } from './style';

/** Rendered images live this long in the shared cache; a version bump makes them unreachable sooner. */
const IMAGE_TTL_SECONDS = 24 * 3600;
/** Raised when the renderer's drawing changes, so clients' ETags from older renders stop matching. */
const RENDERER_REVISION = 1;

export interface QrImage {
  etag: string;
  /** Null when the client's ETag matched (304, nothing rendered or read). */
  svg: Buffer | null;
}

@Injectable()
export class ImagesService {
  constructor(
    private readonly qrCodes: QrCodesService,
    @Inject(CACHE) private readonly cache: Cache,
    private readonly metrics: MetricsService,
  ) {}

  async image(accountId: AccountId, id: string, size: number, ifNoneMatch?: string): Promise<QrImage> {
    const code = await this.qrCodes.findOwned(accountId, id);
    const etag = `"r${RENDERER_REVISION}.v${code.renderVersion}.s${size}"`;
    if (ifNoneMatch && matchesEtag(ifNoneMatch, etag)) return { etag, svg: null };

    const key = imageCacheKey(code.id, code.renderVersion, size);
    const cached = await this.cache.get(key);
    if (cached) {
      this.metrics.imageCacheHits.inc();
      return { etag, svg: cached };
    }
    this.metrics.imageCacheMisses.inc();
    // A dynamic code's image encodes its short link; a static code's, its content string.
    const text = code.isDynamic && code.shortCode ? dynamicUrl(this.qrCodes.origins, code.shortCode) : code.contentString;
    const svg = Buffer.from(renderQrSvg({ text, style: code.style as QrStyle, size, idPrefix: `q${code.id.slice(0, 8)}` }));
    await this.cache.set(key, svg, IMAGE_TTL_SECONDS);
    return { etag, svg };
  }
}

function matchesEtag(header: string, etag: string): boolean {
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}
