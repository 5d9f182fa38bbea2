import { writeFileSync } from 'node:fs';
import { renderExportFile } from './src/rendering/export/export-file';
import { pngResolution } from './src/rendering/export/png-file';
(async () => {
  const source = { text: 'https://example.com/r/abc123', name: 'Menü "Sommer"', style: { dotsOptions: { type: 'rounded' as const, gradient: { type: 'linear' as const, rotation: 45, colorStops: [{ offset: 0, color: '#1a237e' }, { offset: 1, color: '#6a1b9a' }] } }, frameOptions: { type: 'banner-bottom' as const, text: 'Scan me' } } };
  for (const format of ['png', 'pdf', 'svg'] as const) {
    let t = Date.now();
    const file = await renderExportFile(source, { format, widthMm: 40, dpi: 300, bleedMm: format === 'pdf' ? 3 : undefined });
    console.log(format, Date.now() - t, 'ms', file.bytes.length, file.moduleSizeMm, file.pixelWidth, file.pixelHeight, format === 'png' ? pngResolution(file.bytes) : '');
    writeFileSync(`/tmp/export-test.${format}`, file.bytes);
  }
  let t = Date.now();
  for (let i = 0; i < 20; i++) await renderExportFile(source, { format: 'png', size: 1000 });
  console.log('png 1000', (Date.now() - t) / 20);
  t = Date.now();
  for (let i = 0; i < 20; i++) await renderExportFile(source, { format: 'pdf', size: 1000 });
  console.log('pdf', (Date.now() - t) / 20);
  try { await renderExportFile(source, { format: 'pdf', widthMm: 10 }); } catch (e) { console.log((e as Error).message); }
})();
