/**
 * Checks of a style's frame (docs/styling-and-scannability.md#frames) beyond its shape: every
 * character of the text must be in the chosen bundled font (it is drawn from the font's outlines,
 * there is no fallback font), and the text must stand out from what it is drawn on by the same
 * contrast the code's modules need. Light text on a dark banner is fine: only the code must be dark on light.
 */
import type { FieldError } from '../../common/validation/field-error';
import { missingCharacters } from '../frames/frame-fonts';
import { resolveFrame, textBackdrop } from '../frames/frame-layout';
import type { QrStyle } from './qr-style';
import { compositeOver, contrastRatio, parseHexColor, WHITE } from './rgba-color';
import { MIN_CONTRAST_RATIO } from './scannability';

const TEXT_FIELD = 'style.frameOptions.text';

export function findFrameProblems(style: QrStyle): FieldError[] {
  const frame = resolveFrame(style.frameOptions);
  if (!frame) return [];
  const problems: FieldError[] = [];

  const missing = missingCharacters(frame.font, frame.text);
  if (missing.length > 0) {
    const shown = missing.map((character) => `"${character}" (U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
    problems.push({
      field: TEXT_FIELD,
      message: `${TEXT_FIELD}: the font ${frame.font} has no ${shown.join(', ')}; it draws Latin, Greek and Cyrillic letters, digits and punctuation`,
    });
  }

  const background = style.backgroundOptions;
  const backdropOfBox = background?.gradient ? null : (background?.color ?? '#ffffff');
  const backdrop = textBackdrop(frame, backdropOfBox === 'transparent' ? null : backdropOfBox);
  // A transparent backdrop is judged on white, as the code's background is; translucent colours are laid on it.
  const under = backdrop === null ? WHITE : compositeOver(parseHexColor(backdrop), WHITE);
  const ratio = contrastRatio(compositeOver(parseHexColor(frame.textColor), under), under);
  const gradientStops = frame.type === 'box' && background?.gradient ? background.gradient.colorStops : [];
  const lowest = Math.min(
    ratio,
    ...gradientStops.map((stop) => {
      const stopColor = compositeOver(parseHexColor(stop.color), WHITE);
      return contrastRatio(compositeOver(parseHexColor(frame.textColor), stopColor), stopColor);
    }),
  );
  if (lowest < MIN_CONTRAST_RATIO) {
    const field = style.frameOptions?.textColor !== undefined ? 'style.frameOptions.textColor' : 'style.frameOptions.color';
    const against = frame.type === 'box' ? 'the background' : 'the frame colour';
    const shown = Math.floor(lowest * 10) / 10;
    problems.push({
      field,
      message: `${field}: the text's contrast ${shown}:1 against ${against} is below ${MIN_CONTRAST_RATIO}:1; it would be hard to read`,
    });
  }
  return problems;
}
