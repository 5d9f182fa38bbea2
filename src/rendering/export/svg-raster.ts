/**
 * SVG to PNG with @resvg/resvg-js, for every raster the service makes (PNG exports, a PDF logo
 * that pdfkit cannot read). resvg keeps a render's pixels (4 bytes each) in native memory that is
 * freed only once V8 collects the render's small JS handles, and V8, which does not count that
 * memory, collects them rarely: a ZIP of 1,000 PNGs at 1000 px grew the process by 333 MB
 * (bench/README.md, "Exports and imports"). So after every RASTER_BUDGET_BYTES of pixels a minor
 * collection runs (the handles are young), and the render waits for the event loop's next turn,
 * where their finalizers free the pixels: the process stays within about one budget of rasters
 * however many are made, one after another (a ZIP export) or side by side.
 */
import { Resvg } from '@resvg/resvg-js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { collectGarbage } from '../../common/memory/garbage-collector';

/** Pixel bytes rendered between two collections. */
const RASTER_BUDGET_BYTES = 32 * 1024 * 1024;

let renderedSinceCollection = 0;

/** The SVG drawn at its own size (or `width` pixels wide) as PNG bytes. No system font is loaded: the service's SVGs hold no text. */
export async function rasterise(svg: string, width?: number): Promise<Buffer> {
  const rendered = new Resvg(svg, {
    fitTo: width === undefined ? { mode: 'original' } : { mode: 'width', value: width },
    font: { loadSystemFonts: false },
    logLevel: 'off',
  }).render();
  const png = Buffer.from(rendered.asPng());
  renderedSinceCollection += rendered.width * rendered.height * 4;
  if (renderedSinceCollection >= RASTER_BUDGET_BYTES) {
    renderedSinceCollection = 0;
    collectGarbage('minor');
    await nextTurn();
  }
  return png;
}
