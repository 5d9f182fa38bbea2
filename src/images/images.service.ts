import { matchesEtag } from '../infra/http/download';
import { Inject, Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { CACHE, Cache } from '../infra/cache/cache';
import { createLru } from '../infra/cache/lru';
import { NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { MetricsService } from '../infra/observability/metrics.service';
import { dynamicUrl } from '../qrcodes/qr-code.representation';
import { DomainEvents } from '../domains/domain-events';
import { codeNotFound, QrCodesService } from '../qrcodes/qr-codes.service';
import { restrictedFolders } from '../infra/http/request-context';
import { exportCacheMember, imageCacheGroup, imageCacheMember, type ImageSource, imageSourceKey, imageSources } from './image-cache-key';
import { QrCodeEvents } from '../qrcodes/qr-code-events';
import { createHash } from 'node:crypto';
import { drawQrCode } from '../rendering/render-qr-svg';
import { writeSvgDocument } from '../rendering/svg-document';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import {
  ExportRefused,
  frameTextProblem,
  measureExport,
  renderExportFile,
  type ExportFile,
  type ExportFormat,
  type ExportMeasure,
  type ExportOptions,
  type ExportSource,
} from '../rendering/export/export-file';
import { DEFAULT_EXPORT_SIZE } from '../rendering/export/print-size';
import type { ExportQuery } from './dto/export.query';
import { MAX_SIZE, MIN_SIZE } from '../rendering/image-size-range';
import { smallestDecodableSize } from '../rendering/smallest-size';
import { overlayStyle } from '../rendering/style/overlay-style';

/** Rendered images live this long in the shared cache; a version bump makes them unreachable sooner. */
const IMAGE_TTL_SECONDS = 24 * 3600;
/** Raised when the renderer's drawing changes, so clients' ETags from older renders stop matching. */
const RENDERER_REVISION = 1;
/** Hot images also stay in process memory (keys carry the render version, so they are never stale). */
const LOCAL_IMAGES = 2_000;
/** Exported files are larger (a 4000 px PNG can pass a megabyte) and fetched once per print job: fewer are kept. */
const LOCAL_EXPORTS = 100;

export interface QrExport {
  etag: string;
  measure: ExportMeasure;
  contentType: string;
  /** the code's name, which the download is named after */
  fileName: string;
  /** Null when the client's ETag matched (304). */
  bytes: Buffer | null;
}

/**
 * The code's image with style fields laid over its own (an image link's overrides, checked when the
 * link was made); `key` names the variant in cache keys and ETags (it never changes for a key).
 */
export interface StyleVariant {
  key: string;
  style: Record<string, unknown>;
}

const variantTag = (variant: StyleVariant | undefined): string => (variant ? `.k${variant.key}` : '');
const styleOf = (source: ImageSource, variant: StyleVariant | undefined): Record<string, unknown> =>
  variant ? (overlayStyle(source.style, variant.style) as Record<string, unknown>) : source.style;

export interface QrImage {
  etag: string;
  /** The smallest `size` at which this code's image decodes (the X-QR-Min-Decodable-Size header). */
  minDecodableSize: number | null;
  /** Null when the client's ETag matched (304, nothing rendered or read). */
  svg: Buffer | null;
}

/**
 * Images: ownership and render version from a near cache (invalidated on every update and
 * delete), bytes from process memory, then the shared cache (Redis), then the renderer.
 */
@Injectable()
export class ImagesService {
  private readonly sources: NearCache<ImageSource>;
  private readonly localImages = createLru<Buffer>({ max: LOCAL_IMAGES, ttl: IMAGE_TTL_SECONDS * 1000 });
  private readonly localExports = createLru<Buffer>({ max: LOCAL_EXPORTS, ttl: IMAGE_TTL_SECONDS * 1000 });

  constructor(
    private readonly qrCodes: QrCodesService,
    @Inject(CACHE) private readonly cache: Cache,
    private readonly metrics: MetricsService,
    nearCaches: NearCacheRegistry,
    events: QrCodeEvents,
    domainEvents: DomainEvents,
  ) {
    this.sources = imageSources(nearCaches);
    events.onCommitted(async (change) => {
      if (change.kind === 'created') return;
      await this.sources.invalidate(imageSourceKey(change.accountId, change.codeId));
      if (change.kind === 'deleted' || change.renderVersionChanged) await this.cache.delete(imageCacheGroup(change.codeId));
    });
    // Codes moved off a deleted domain encode another URL now (their render version went up with the move).
    domainEvents.onCommitted(async (change) => {
      if (change.kind !== 'deleted') return;
      for (const code of change.moved) {
        await this.sources.invalidate(imageSourceKey(change.accountId, code.id));
        await this.cache.delete(imageCacheGroup(code.id));
      }
    });
  }

  async image(accountId: AccountId, id: QrCodeId, size: number, ifNoneMatch?: string, variant?: StyleVariant): Promise<QrImage> {
    const source = await this.source(accountId, id);
    const etag = `"r${RENDERER_REVISION}.v${source.renderVersion}.s${size}${variantTag(variant)}"`;
    const { minDecodableSize } = source;
    if (matchesEtag(ifNoneMatch, etag)) return { etag, minDecodableSize, svg: null };

    const group = imageCacheGroup(source.id);
    const member = imageCacheMember(source.renderVersion, size) + variantTag(variant);
    const key = `${group}:${member}`;
    const local = this.localImages.get(key);
    if (local) {
      this.metrics.imageCacheHits.inc();
      return { etag, minDecodableSize, svg: local };
    }
    const shared = await this.cache.getMember(group, member);
    if (shared) {
      this.metrics.imageCacheHits.inc();
      this.localImages.set(key, shared);
      return { etag, minDecodableSize, svg: shared };
    }
    this.metrics.imageCacheMisses.inc();
    const drawing = drawQrCode({ text: source.text, style: styleOf(source, variant), size, idPrefix: idPrefixOf(source) });
    const frameProblem = frameTextProblem(drawing, { field: 'size', size });
    if (frameProblem) throw new ValidationFailedException([frameProblem]);
    const svg = Buffer.from(writeSvgDocument(drawing.parts));
    this.localImages.set(key, svg);
    await this.cache.setMember(group, member, svg, IMAGE_TTL_SECONDS);
    return { etag, minDecodableSize, svg };
  }

  /**
   * An exported file (PNG, PDF or SVG) of the code, cached like the images: per render version and
   * export parameters, in process memory and the shared cache; the code's name is part of the key
   * (it names the PDF). Sizes are judged before any cache is looked at, so a refused size is
   * refused the same way every time; a 304 carries the same headers as the file.
   */
  async export(accountId: AccountId, id: QrCodeId, query: ExportQuery, ifNoneMatch?: string, variant?: StyleVariant): Promise<QrExport> {
    const source = await this.source(accountId, id);
    const exportSource: ExportSource = { text: source.text, style: styleOf(source, variant), name: source.name, idPrefix: idPrefixOf(source) };
    const options: ExportOptions = { format: query.format, size: query.size, widthMm: query.widthMm, dpi: query.dpi, bleedMm: query.bleedMm };
    let measure: ExportMeasure;
    try {
      measure = measureExport(exportSource, options);
    } catch (error) {
      throw asValidationFailure(error);
    }
    const parameters = exportParameters(query, source.name) + variantTag(variant);
    const etag = `"r${RENDERER_REVISION}.v${source.renderVersion}.x.${parameters}"`;
    const answer = { etag, measure, contentType: EXPORT_MEDIA_TYPES[query.format], fileName: source.name };
    if (matchesEtag(ifNoneMatch, etag)) return { ...answer, bytes: null };

    const group = imageCacheGroup(source.id);
    const member = exportCacheMember(source.renderVersion, parameters);
    const key = `${group}:${member}`;
    const local = this.localExports.get(key);
    if (local) {
      this.metrics.imageCacheHits.inc();
      return { ...answer, bytes: local };
    }
    const shared = await this.cache.getMember(group, member);
    if (shared) {
      this.metrics.imageCacheHits.inc();
      this.localExports.set(key, shared);
      return { ...answer, bytes: shared };
    }
    this.metrics.imageCacheMisses.inc();
    let file: ExportFile;
    try {
      file = await renderExportFile(exportSource, options);
    } catch (error) {
      throw asValidationFailure(error);
    }
    this.localExports.set(key, file.bytes);
    await this.cache.setMember(group, member, file.bytes, IMAGE_TTL_SECONDS);
    return { ...answer, bytes: file.bytes };
  }

  /** Ownership, render version and what to encode; the database only on a near-cache miss. */
  private async source(accountId: AccountId, id: QrCodeId): Promise<ImageSource> {
    const cacheKey = imageSourceKey(accountId, id);
    const known = this.sources.get(cacheKey);
    if (known) {
      // The source is the account's; a key limited to some folders sees only codes in them, as its queries do.
      const folders = restrictedFolders(accountId);
      if (folders && !(known.folderId && folders.includes(known.folderId))) throw codeNotFound();
      return known;
    }
    const lookedUpAt = this.sources.mark();
    const code = await this.qrCodes.findOwned(accountId, id);
    // A dynamic code's image encodes its short link; a static code's, its content string.
    const text = code.isDynamic && code.shortCode ? dynamicUrl(this.qrCodes.origins, code.shortCode, code.domainHostname) : code.contentString;
    const source: ImageSource = {
      id: code.id,
      name: code.name,
      renderVersion: code.renderVersion,
      text,
      style: code.style,
      // Per code, not per size: computed here, once per source lookup, so cache hits and 304s carry it too.
      minDecodableSize: smallestDecodableSize(text, code.style, MIN_SIZE, MAX_SIZE),
      folderId: code.folderId,
    };
    this.sources.set(cacheKey, source, undefined, lookedUpAt);
    return source;
  }
}

/** A size the renderer refuses is the client's to change: 400 naming the option. */
function asValidationFailure(error: unknown): unknown {
  return error instanceof ExportRefused ? new ValidationFailedException(error.errors) : error;
}

const idPrefixOf = (source: ImageSource) => `q${source.id.slice(0, 8)}`;

const EXPORT_MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = { png: 'image/png', pdf: 'application/pdf', svg: 'image/svg+xml' };

/** The export's parameters as a key: format, size or width and dpi, bleed, and a hash of the name the PDF carries. */
function exportParameters(query: ExportQuery, name: string): string {
  const sizing = query.widthMm !== undefined ? `w${query.widthMm}` : `s${query.size ?? DEFAULT_EXPORT_SIZE}`;
  const bleed = query.bleedMm ? `.b${query.bleedMm}` : '';
  const nameHash = query.format === 'pdf' ? `.n${createHash('sha256').update(name).digest('base64url').slice(0, 8)}` : '';
  return `${query.format}.${sizing}.d${query.dpi}${bleed}${nameHash}`;
}
