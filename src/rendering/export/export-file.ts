/**
 * Exported files of a code: PNG (raster with its resolution), PDF (vectors) and SVG, sized in
 * pixels or as a printed width in millimetres (print-size.ts). Pure apart from CPU: no Nest, no
 * I/O. The HTTP export route (src/images/) and the ZIP exports both call renderExportFile.
 */
import type { FieldError } from '../../common/validation/field-error';
import { MIN_TEXT_CAP_HEIGHT_MM, MIN_TEXT_CAP_HEIGHT_PX } from '../frames/frame-layout';
import { MIN_PIXELS_PER_MODULE } from '../module-size-rule';
import { drawQrCode, type QrDrawing } from '../render-qr-svg';
import { drawnModuleCount, smallestDecodableSize } from '../smallest-size';
import type { QrStyle } from '../style/qr-style';
import { writeSvgDocument } from '../svg-document';
import { roundTo } from '../svg-markup';
import { drawingToPdf } from './pdf-file';
import { svgToPng } from './png-file';
import {
  DEFAULT_DPI,
  DEFAULT_EXPORT_SIZE,
  layoutAt,
  MAX_EXPORT_SIZE,
  MIN_EXPORT_SIZE,
  MIN_MODULE_MM,
  pixelsForWidth,
  roundMm,
  smallestPrintWidthMm,
} from './print-size';

export const EXPORT_FORMATS = ['png', 'pdf', 'svg'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = { png: 'image/png', pdf: 'application/pdf', svg: 'image/svg+xml' };

/** What is drawn: the code's encoded text (a dynamic code's short link) and its stored style. */
export interface ExportSource {
  text: string;
  style: QrStyle;
  /** the code's name, written as the PDF's title */
  name?: string;
  /** prefix of the SVG's element ids (see RenderQrSvgInput) */
  idPrefix?: string;
}

/**
 * How big. Either `size` (pixels, MIN_EXPORT_SIZE..MAX_EXPORT_SIZE; default DEFAULT_EXPORT_SIZE)
 * or `widthMm` (the printed width of the code with its quiet zone; a frame adds to it), with
 * `dpi` (default 300): the PNG's resolution and the pixel grid the code is laid out on. Callers
 * validate ranges; combinations are judged here (ExportRefused).
 */
export interface ExportOptions {
  format: ExportFormat;
  size?: number;
  widthMm?: number;
  dpi?: number;
  /** PDF only: added on every side of the page, the edge colour running on into it */
  bleedMm?: number;
}

/** Sizes of one export, known before anything is drawn. */
export interface ExportMeasure {
  /** side of the code's canvas (quiet zone included), pixels at `dpi` */
  canvasSize: number;
  dpi: number;
  /** printed width of the code's canvas, millimetres */
  codeWidthMm: number;
  /** module width in pixels and in millimetres (at `dpi` when sized in pixels) */
  modulePixels: number;
  moduleSizeMm: number;
  /**
   * Set when a raster's modules are narrower than MIN_PIXELS_PER_MODULE: the file is still made,
   * but may not decode (the HTTP route sends it as a Warning header).
   */
  warning: string | null;
}

export interface ExportFile extends ExportMeasure {
  bytes: Buffer;
  contentType: string;
  /** file name extension without the dot */
  extension: ExportFormat;
  /** size of the whole drawing (frame included), pixels at `dpi` */
  pixelWidth: number;
  pixelHeight: number;
}

/** A request that cannot be drawn as asked; `errors` name the option (`size`, `width_mm`, `dpi`) and what would work. */
export class ExportRefused extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((error) => error.message).join('; '));
    this.name = 'ExportRefused';
  }
}

const refuse = (field: string, message: string): never => {
  throw new ExportRefused([{ field, message: `${field}: ${message}` }]);
};

/**
 * The sizes of an export, and the print-safety verdict: a printed width whose modules would be
 * narrower than MIN_MODULE_MM is refused naming `width_mm` and the smallest width that works.
 * Cheap (no drawing), so it can run for every request, cached file or not.
 */
export function measureExport(source: ExportSource, options: ExportOptions): ExportMeasure {
  const dpi = options.dpi ?? DEFAULT_DPI;
  const moduleCount = drawnModuleCount(source.text, source.style);
  if (moduleCount === null) return refuse('content', 'the content is too long for a QR code at this error correction level');

  if (options.widthMm !== undefined) return measurePrint(source, { ...options, widthMm: options.widthMm }, dpi, moduleCount);

  const canvasSize = options.size ?? DEFAULT_EXPORT_SIZE;
  const layout = layoutAt(source.style, moduleCount, canvasSize);
  return {
    canvasSize,
    dpi,
    codeWidthMm: (canvasSize * 25.4) / dpi,
    modulePixels: layout.moduleSize,
    moduleSizeMm: (layout.moduleSize * 25.4) / dpi,
    warning: options.format === 'pdf' ? null : pixelWarning(source, layout.moduleSize, 'size'),
  };
}

/** An export sized by its printed width: refused when its modules would be too narrow to print (or a PNG's pixels out of range). */
function measurePrint(source: ExportSource, options: ExportOptions & { widthMm: number }, dpi: number, moduleCount: number): ExportMeasure {
  const canvasSize = pixelsForWidth(options.widthMm, dpi);
  if (options.format === 'png') checkPngPixels(options.widthMm, dpi, canvasSize);
  const layout = layoutAt(source.style, moduleCount, canvasSize);
  const moduleSizeMm = (layout.moduleSize * options.widthMm) / canvasSize;
  if (moduleSizeMm < MIN_MODULE_MM) {
    const smallest = smallestPrintWidthMm(source.style, moduleCount, dpi);
    const remedy =
      smallest === null
        ? 'no width up to 1000 mm gives that; shorten the content or lower the error correction level'
        : `use width_mm ${smallest} or more`;
    refuse(
      'width_mm',
      `at ${options.widthMm} mm the code's ${moduleCount} modules (plus quiet zone) are ${roundMm(moduleSizeMm)} mm wide, ` +
        `below the ${MIN_MODULE_MM} mm a printed module needs to scan reliably; ${remedy}`,
    );
  }
  return {
    canvasSize,
    dpi,
    codeWidthMm: options.widthMm,
    modulePixels: layout.moduleSize,
    moduleSizeMm,
    warning: options.format === 'png' ? pixelWarning(source, layout.moduleSize, 'dpi') : null,
  };
}

/** A PNG `widthMm` wide at `dpi` must stay within the PNG's pixel range; refused naming the dpi that fits. */
function checkPngPixels(widthMm: number, dpi: number, canvasSize: number): void {
  if (canvasSize > MAX_EXPORT_SIZE) {
    const highest = Math.floor((MAX_EXPORT_SIZE / widthMm) * 25.4);
    refuse(
      'dpi',
      `a PNG ${widthMm} mm wide at ${dpi} dpi would be ${canvasSize} px; ` +
        `PNG is at most ${MAX_EXPORT_SIZE} px, so use dpi ${highest} or less (or pdf or svg)`,
    );
  }
  if (canvasSize < MIN_EXPORT_SIZE) {
    const lowest = Math.ceil((MIN_EXPORT_SIZE / widthMm) * 25.4);
    refuse(
      'dpi',
      `a PNG ${widthMm} mm wide at ${dpi} dpi would be ${canvasSize} px; PNG is at least ${MIN_EXPORT_SIZE} px, so use dpi ${lowest} or more`,
    );
  }
}

/** The warning for modules narrower than a decoder needs, naming what to change. */
function pixelWarning(source: ExportSource, modulePixels: number, knob: 'size' | 'dpi'): string | null {
  if (modulePixels >= MIN_PIXELS_PER_MODULE) return null;
  const shown = roundTo(modulePixels, 2);
  if (knob === 'dpi') return `modules are ${shown} px wide, below the ${MIN_PIXELS_PER_MODULE} px images decode from; raise dpi`;
  const smallest = smallestDecodableSize(source.text, source.style, MIN_EXPORT_SIZE, MAX_EXPORT_SIZE);
  const remedy = smallest === null ? 'no size up to the maximum gives that' : `use size ${smallest} or more`;
  return `modules are ${shown} px wide, below the ${MIN_PIXELS_PER_MODULE} px images decode from; the image may not decode; ${remedy}`;
}

/**
 * A frame's text must stay legible: capitals at least MIN_TEXT_CAP_HEIGHT_PX in an image sized in
 * pixels, MIN_TEXT_CAP_HEIGHT_MM in print. Too small → a refusal naming the size option and the
 * smallest value that holds the text (text height grows in step with the code).
 */
export function frameTextProblem(
  drawing: QrDrawing,
  sizing: { field: 'size'; size: number } | { field: 'width_mm'; widthMm: number },
): FieldError | null {
  const { frame } = drawing;
  if (!frame) return null;
  const capPixels = frame.textCapHeight;
  if (sizing.field === 'size') {
    if (capPixels >= MIN_TEXT_CAP_HEIGHT_PX) return null;
    const needed = Math.ceil((sizing.size * MIN_TEXT_CAP_HEIGHT_PX) / capPixels);
    return {
      field: 'size',
      message:
        `size: at ${sizing.size} px the frame's text (frameOptions.text) would be ${roundTo(capPixels, 1)} px high, ` +
        `below the ${MIN_TEXT_CAP_HEIGHT_PX} px it needs to be read; use size ${needed} or more, or a shorter text`,
    };
  }
  const capMm = (capPixels * sizing.widthMm) / drawing.layout.canvasSize;
  if (capMm >= MIN_TEXT_CAP_HEIGHT_MM) return null;
  const needed = Math.ceil((sizing.widthMm * MIN_TEXT_CAP_HEIGHT_MM) / capMm);
  return {
    field: 'width_mm',
    message:
      `width_mm: at ${sizing.widthMm} mm the frame's text (frameOptions.text) would be ${roundTo(capMm, 2)} mm high, ` +
      `below the ${MIN_TEXT_CAP_HEIGHT_MM} mm it needs to be read; use width_mm ${needed} or more, or a shorter text`,
  };
}

/**
 * The file of one code, in one format and size. Throws ExportRefused when the size cannot serve
 * (print too small to scan, PNG beyond its pixel range, a frame's text too small to read); the
 * export is then not made at all. Everything else about the input (style, ranges) is the caller's
 * to have checked.
 */
export async function renderExportFile(source: ExportSource, options: ExportOptions): Promise<ExportFile> {
  const measure = measureExport(source, options);
  const drawing = drawQrCode({ text: source.text, style: source.style, size: measure.canvasSize, idPrefix: source.idPrefix });
  const textProblem = frameTextProblem(
    drawing,
    options.widthMm !== undefined ? { field: 'width_mm', widthMm: options.widthMm } : { field: 'size', size: measure.canvasSize },
  );
  if (textProblem) throw new ExportRefused([textProblem]);

  const printedWidthMm = (drawing.width * measure.codeWidthMm) / measure.canvasSize;
  const printedHeightMm = (drawing.height * measure.codeWidthMm) / measure.canvasSize;
  let bytes: Buffer;
  if (options.format === 'pdf') {
    bytes = await drawingToPdf(drawing, { widthMm: printedWidthMm, bleedMm: options.bleedMm ?? 0, title: source.name });
  } else {
    // Sized in millimetres, the SVG says so; sized in pixels, it keeps its pixel size.
    const dimensions =
      options.widthMm !== undefined && options.format === 'svg'
        ? { width: `${roundTo(printedWidthMm, 3)}mm`, height: `${roundTo(printedHeightMm, 3)}mm` }
        : undefined;
    const svg = writeSvgDocument(drawing.parts, dimensions);
    bytes = options.format === 'png' ? await svgToPng(svg, measure.dpi) : Buffer.from(svg);
  }
  return {
    ...measure,
    bytes,
    contentType: MEDIA_TYPES[options.format],
    extension: options.format,
    pixelWidth: drawing.width,
    pixelHeight: drawing.height,
  };
}
