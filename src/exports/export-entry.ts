import { renderQrSvg } from '../rendering/render-qr-svg';

/** What a ZIP export asks of each file. */
export interface ExportFileOptions {
  format: 'svg' | 'png' | 'pdf';
  /** Pixels; for png and svg. */
  size?: number;
  widthMm?: number;
  dpi?: number;
}

/** What a file renders from: the text the code encodes and its style. */
export interface ExportEntrySource {
  id: string;
  text: string;
  style: Record<string, unknown>;
}

/** Formats a ZIP export renders today. png and pdf are accepted by the schema and refused (400) until renderExportFile is wired here. */
export const ZIP_FORMATS_AVAILABLE: ReadonlySet<ExportFileOptions['format']> = new Set(['svg']);

const MM_PER_INCH = 25.4;

/** The pixel size of a file: `size`, or `width_mm` at `dpi`. */
export function pixelSize(options: ExportFileOptions): number {
  if (options.size !== undefined) return options.size;
  return Math.round(((options.widthMm ?? 0) / MM_PER_INCH) * (options.dpi ?? 300));
}

/**
 * One file of a ZIP export: the one place a code becomes bytes of the requested format (the PNG
 * and PDF renderer plugs in here).
 */
export function renderExportEntry(source: ExportEntrySource, options: ExportFileOptions): { bytes: Uint8Array; extension: string } {
  if (options.format !== 'svg') throw new Error(`ZIP export as ${options.format} is not available`);
  const svg = renderQrSvg({ text: source.text, style: source.style, size: pixelSize(options), idPrefix: `q${source.id.slice(0, 8)}` });
  return { bytes: Buffer.from(svg), extension: 'svg' };
}
