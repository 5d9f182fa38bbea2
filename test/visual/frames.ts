/**
 * Visual gallery of frames: every frame shape with a long, a Greek and a Cyrillic call to action,
 * in both bundled fonts, as exported PNG (400 px) and as PDF (40 mm, rasterised by pdftoppm at
 * 300 dpi), each read by the four decoders.
 *
 *   node -r @swc-node/register test/visual/frames.ts
 *
 * Writes test/visual/out/frames/ (git-ignored): <name>.png, <name>-pdf.png, <name>.pdf and
 * index.html, the gallery with decode results. Exit code 1 when a file is misread by any decoder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAME_FONT_NAMES } from '../../src/rendering/frames/frame-fonts';
import { renderExportFile } from '../../src/rendering/export/export-file';
import { FRAME_TYPES, type QrStyle } from '../../src/rendering/style/qr-style';
import { rasterisePdf } from '../support/pdf-raster';
import { decodePng, flattenOnWhite } from '../support/png-reader';
import { decodeWithAll, misreadBy, stopZxingCpp1Reader } from '../support/qr-decoders';

const OUT = join(__dirname, 'out', 'frames');
const TEXT = 'https://example.com/r/Xy7Kq2Lm';
const CALLS: Record<string, string> = {
  long: 'Scan for the full menu & more',
  greek: 'Σαρώστε με για το μενού',
  cyrillic: 'Сканируйте, чтобы открыть меню',
};
const COLOURS = ['#1a237e', '#b71c1c', '#004d40'];

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const rows: string[] = [];
  let failures = 0;
  let index = 0;
  for (const type of FRAME_TYPES.filter((frame) => frame !== 'none')) {
    for (const [label, call] of Object.entries(CALLS)) {
      for (const font of FRAME_FONT_NAMES) {
        const color = COLOURS[index++ % COLOURS.length];
        const style: QrStyle = { dotsOptions: { type: 'rounded', color }, frameOptions: { type, text: call, color, font } };
        const name = `${type}-${label}-${font}`;
        const png = await renderExportFile({ text: TEXT, style }, { format: 'png', size: 400 });
        const pdf = await renderExportFile({ text: TEXT, style }, { format: 'pdf', widthMm: 50 });
        writeFileSync(join(OUT, `${name}.png`), png.bytes);
        writeFileSync(join(OUT, `${name}.pdf`), pdf.bytes);
        const pngMisread = misreadBy(await decodeWithAll(flattenOnWhite(decodePng(png.bytes))), TEXT);
        const pdfRaster = rasterisePdf(pdf.bytes, 300);
        const pdfMisread = misreadBy(await decodeWithAll(pdfRaster), TEXT);
        failures += pngMisread.length + pdfMisread.length;
        const verdict = (misread: string[]) => (misread.length ? `<b>misread by ${misread.join(', ')}</b>` : 'read by all four');
        rows.push(
          `<tr><td>${type}<br>${label}<br>${font}</td><td><img src="${name}.png" width="250"></td>` +
            `<td><a href="${name}.pdf">PDF</a> (pdftoppm ${pdfRaster.width}×${pdfRaster.height})</td>` +
            `<td>PNG: ${verdict(pngMisread)}<br>PDF: ${verdict(pdfMisread)}</td></tr>`,
        );
        console.log(`${name}: PNG ${pngMisread.length ? 'misread' : 'ok'}, PDF ${pdfMisread.length ? 'misread' : 'ok'}`);
      }
    }
  }
  writeFileSync(
    join(OUT, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>Frames</title><table border="1" cellpadding="6">' +
      `<tr><th>frame</th><th>PNG</th><th>PDF</th><th>decoders</th></tr>${rows.join('')}</table>`,
  );
  stopZxingCpp1Reader();
  console.log(`${rows.length} frames, ${failures} misreads; gallery in ${join(OUT, 'index.html')}`);
  if (failures > 0) process.exitCode = 1;
}

void main();
