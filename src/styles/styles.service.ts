import { Injectable } from '@nestjs/common';
import { MAX_SIZE, MIN_SIZE } from '../rendering/image-size-range';
import { buildQrMatrix } from '../rendering/qr-matrix';
import { minimumDrawnVersion } from '../rendering/drawn-version';
import { smallestSizeFor } from '../rendering/smallest-size';
import { checkStyle, resolveErrorCorrectionLevel } from '../rendering/style';
import { resolveFinderTypes } from '../rendering/style/finder-defaults';
import { logoCoverage, lowestContrastRatio } from '../rendering/style/scannability';
import { dynamicUrl } from '../qrcodes/qr-code.representation';
import { capacityProblem } from '../qrcodes/qr-code-rules';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { SHORT_CODE_LENGTH } from '../qrcodes/short-code';
import type { CheckStyleDto, StyleCheckView } from './dto/check-style.dto';

/**
 * The style check: the verdict create, bulk create and update reach for a style (checkStyle, and
 * for a static code of the given length the capacity rule, capacityProblem, both the very functions
 * those requests call), and the measurements behind it.
 */
@Injectable()
export class StylesService {
  constructor(private readonly qrCodes: QrCodesService) {}

  check(dto: CheckStyleDto): Omit<StyleCheckView, 'request_id'> {
    const check = checkStyle(dto.style);
    const empty = {
      contrast_ratio: null,
      logo_coverage: null,
      logo_budget: null,
      error_correction_level: null,
      module_count: null,
      pixels_per_module: null,
      min_size: null,
      margin_px: null,
      quiet_zone_modules: null,
      defaults_applied: [],
    };
    // A malformed style (wrong shape) has nothing to measure; a refused one still has.
    const style = check.ok ? check.style : check.refusedStyle;
    if (!style) return { accepted: false, errors: check.ok ? [] : check.errors, ...empty };

    const level = resolveErrorCorrectionLevel(style);
    const text = this.encodedText(dto);
    const errors = check.ok ? [] : [...check.errors];
    // Create names the capacity only once the style is accepted; a refused style is still measured,
    // so content past its level's capacity leaves the measurements that need a matrix null.
    const capacity = text !== null && (dto.type ?? 'static') === 'static' ? capacityProblem(text, style) : null;
    if (check.ok && capacity) errors.push(capacity);
    const moduleCount = text === null || capacity ? null : buildQrMatrix(text, level, minimumDrawnVersion(style)).size;
    const sizing = moduleCount === null ? null : smallestSizeFor(style, moduleCount, MIN_SIZE, MAX_SIZE);
    const logo = logoCoverage(style);
    return {
      accepted: errors.length === 0,
      errors,
      contrast_ratio: Math.floor(lowestContrastRatio(style) * 100) / 100,
      logo_coverage: logo && round(logo.coverage),
      logo_budget: logo && round(logo.budget),
      error_correction_level: level,
      module_count: moduleCount,
      pixels_per_module: sizing?.pixelsPerModule ?? null,
      min_size: sizing?.size ?? null,
      margin_px: style.margin ?? null,
      quiet_zone_modules: sizing?.quietZoneModules ?? null,
      defaults_applied: resolveFinderTypes(style).applied,
    };
  }

  /** What the image would encode: the short link of a dynamic code, else content_length bytes (byte mode). */
  private encodedText(dto: CheckStyleDto): string | null {
    if (dto.type === 'dynamic') return dynamicUrl(this.qrCodes.origins, 'x'.repeat(SHORT_CODE_LENGTH));
    return dto.content_length === undefined ? null : 'a'.repeat(dto.content_length);
  }
}

function round(share: number): number {
  return Math.round(share * 10_000) / 10_000;
}
