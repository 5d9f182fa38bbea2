import { Injectable } from '@nestjs/common';
import type { AccountId } from '../../common/ids/account-id';
import type { Gs1ItemId } from '../../common/ids/resource-ids';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import type { ExportQuery } from '../../images/dto/export.query';
import type { ImageQuery } from '../../images/dto/image.query';
import { ExportRefused, renderExportFile, frameTextProblem } from '../../rendering/export/export-file';
import { roundMm } from '../../rendering/export/print-size';
import { drawQrCode } from '../../rendering/render-qr-svg';
import type { QrStyle } from '../../rendering/style';
import { writeSvgDocument } from '../../rendering/svg-document';
import { compressPath } from '../syntax/compression';
import { humanReadable, parseKeyPath } from '../syntax/digital-link-key';
import { Gs1ItemsService } from './gs1-items.service';

/**
 * GS1's smallest module (X-dimension) for a QR code scanned at a retail point of sale (GS1 General
 * Specifications, symbol specification table 1: 0.396 mm); a printed item narrower is refused.
 */
export const MIN_RETAIL_MODULE_MM = 0.396;

/** The GS1 routes' own print options: the compressed URI, the HRI under the code. */
export interface PrintOptions {
  compressed: boolean;
  hri: boolean;
}

/** What a printed GS1 item encodes and shows: its Digital Link URI, and the human-readable interpretation under it. */
interface PrintSource {
  text: string;
  hri: string;
  name: string;
}

/**
 * The codes of GS1 items for print, drawn to GS1's symbol guidance: the URI uncompressed unless
 * asked, no logo, the quiet zone of four modules the renderer always keeps, error correction M,
 * and the HRI (`(01) 09506000134352 (10) LOT42`) as the frame's text under the code.
 */
@Injectable()
export class Gs1PrintService {
  constructor(private readonly items: Gs1ItemsService) {}

  async image(accountId: AccountId, id: Gs1ItemId, query: ImageQuery, options: PrintOptions): Promise<Buffer> {
    const source = await this.source(accountId, id, options.compressed);
    const drawing = drawQrCode({ text: source.text, style: gs1Style(source.hri, options), size: query.size });
    const problem = frameTextProblem(drawing, { field: 'size', size: query.size });
    if (problem) throw new ValidationFailedException([problem]);
    return Buffer.from(writeSvgDocument(drawing.parts));
  }

  async export(accountId: AccountId, id: Gs1ItemId, query: ExportQuery, options: PrintOptions) {
    const source = await this.source(accountId, id, options.compressed);
    try {
      const file = await renderExportFile(
        { text: source.text, style: gs1Style(source.hri, options), name: source.name },
        { format: query.format, size: query.size, widthMm: query.widthMm, dpi: query.dpi, bleedMm: query.bleedMm },
      );
      if (query.widthMm !== undefined && file.moduleSizeMm < MIN_RETAIL_MODULE_MM) {
        const field = 'width_mm';
        const module = `${roundMm(file.moduleSizeMm)} mm`;
        const message = `${field}: at ${query.widthMm} mm a module is ${module}, below the ${MIN_RETAIL_MODULE_MM} mm a till needs (GS1)`;
        throw new ValidationFailedException([{ field, message }]);
      }
      return { file, fileName: source.name };
    } catch (error) {
      if (error instanceof ExportRefused) throw new ValidationFailedException(error.errors);
      throw error;
    }
  }

  private async source(accountId: AccountId, id: Gs1ItemId, compressed: boolean): Promise<PrintSource> {
    const item = await this.items.get(accountId, id);
    const key = parseKeyPath(item.path);
    const hri = key.ok ? humanReadable(key.value) : item.path;
    const text = compressed ? compressPath(item.uri.slice(0, item.uri.length - item.path.length), item.path) : item.uri;
    return { text, hri, name: item.name ?? hri };
  }
}

/**
 * The one style of a printed GS1 item (a till must read it): black on white, square modules, no
 * logo, the HRI as the frame's text (a print too narrow for the text to be read is refused, naming
 * width_mm or size: print wider, or with hri=false when the pack prints it elsewhere).
 */
const gs1Style = (hri: string, options: PrintOptions): QrStyle =>
  options.hri ? { frameOptions: { type: 'banner-bottom', text: hri, color: '#ffffff', textColor: '#000000' } } : {};
