/**
 * The smallest QR version a style is drawn at (docs/styling-and-scannability.md, "Small symbols").
 * The encoder picks the smallest version that holds the text; two things make small versions
 * worse to read than their capacity says:
 * - version 1 has no alignment pattern, so decoders place its grid from the finder patterns alone,
 *   and styled finders (a round ring around a square centre, a gradient ring) then throw zbar off
 *   at every size (the decode property test found it): every style is drawn from version 2;
 * - a logo hides a share of the code's area, but in a small symbol the finder, timing and format
 *   patterns take up to 43 % of the modules, all outside the centre: the logo's share of the
 *   codewords is its area over the data modules' share, and at version 2 a logo the coverage rule
 *   admits could hide more codewords than the level restores (the 10,000-case property test found
 *   two). So a code with a logo is drawn at the smallest version where the hidden share of
 *   codewords stays within LOGO_CODEWORD_LIMIT of what the level restores.
 */
import { logoCoverage, RECOVERABLE_CODEWORD_SHARE } from './style/scannability';
import { resolveErrorCorrectionLevel, type QrStyle } from './style/qr-style';
import { dataModuleCount, symbolSize } from './qr-encoder/symbol-tables';

export const MIN_DRAWN_VERSION = 2;
/** A logo may hide at most this part of the codewords its level restores (the rest is for the scan's own errors). */
export const LOGO_CODEWORD_LIMIT = 0.8;
/** From here the data modules' share (over 75 %) no longer limits any logo the coverage rule admits. */
const LARGEST_LOGO_MINIMUM = 6;

/** Share of a version's modules that carry codewords. */
export function dataModuleShare(version: number): number {
  return dataModuleCount(version) / symbolSize(version) ** 2;
}

export function minimumDrawnVersion(style: QrStyle): number {
  const logo = logoCoverage(style);
  if (!logo) return MIN_DRAWN_VERSION;
  const restorable = RECOVERABLE_CODEWORD_SHARE[resolveErrorCorrectionLevel(style)] * LOGO_CODEWORD_LIMIT;
  for (let version = MIN_DRAWN_VERSION; version < LARGEST_LOGO_MINIMUM; version++) {
    if (logo.coverage / dataModuleShare(version) <= restorable) return version;
  }
  return LARGEST_LOGO_MINIMUM;
}
