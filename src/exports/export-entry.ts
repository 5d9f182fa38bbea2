import { renderExportFile } from '../rendering/export/export-file';

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
  /** the code's name (a PDF's title) */
  name?: string;
}

const MM_PER_INCH = 25.4;

/** The pixel size of a file: `size`, or `width_mm` at `dpi`. */
export function pixelSize(options: ExportFileOptions): number {
  if (options.size !== undefined) return options.size;
  return Math.round(((options.widthMm ?? 0) / MM_PER_INCH) * (options.dpi ?? 300));
}

/**
 * One file of a ZIP export: the code drawn in the requested format by the export renderer of
 * `GET /qrcodes/:id/export` (renderExportFile), so a ZIP's files are the single export's files.
 */
export async function renderExportEntry(source: ExportEntrySource, options: ExportFileOptions): Promise<{ bytes: Uint8Array; extension: string }> {
  const file = await renderExportFile(
    { text: source.text, style: source.style, name: source.name, idPrefix: `q${source.id.slice(0, 8)}` },
    options.widthMm !== undefined
      ? { format: options.format, widthMm: options.widthMm, dpi: options.dpi }
      : { format: options.format, size: options.size },
  );
  return { bytes: file.bytes, extension: file.extension };
}
