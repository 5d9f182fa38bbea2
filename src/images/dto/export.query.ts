import type { ExportFormat } from '../../rendering/export/export-file';

/** The export endpoint's query once parsed (ExportQueryPipe). `size` and `widthMm` are never both set. */
export interface ExportQuery {
  format: ExportFormat;
  /** pixels; DEFAULT_EXPORT_SIZE when neither size nor width_mm is given */
  size?: number;
  /** printed width of the code with its quiet zone, millimetres */
  widthMm?: number;
  dpi: number;
  /** PDF only */
  bleedMm?: number;
}
