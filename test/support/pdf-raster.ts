/**
 * Test helper: a PDF page as pixels, rasterised by poppler's pdftoppm (Debian's poppler-utils; .ci/run
 * installs it), the way a print shop's RIP or a viewer would show the vectors.
 */
import { spawnSync } from 'node:child_process';
import type { RasterImage } from './decode-svg';
import { decodePng } from './png-reader';

/** The first page at `dpi`, anti-aliased as viewers draw it. */
export function rasterisePdf(pdf: Buffer, dpi: number): RasterImage {
  const result = spawnSync('pdftoppm', ['-png', '-r', String(dpi), '-singlefile', '-f', '1', '-l', '1', '-'], {
    input: pdf,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw new Error(`pdftoppm: ${result.error.message}; is poppler-utils installed (apt-get install poppler-utils)?`);
  if (result.status !== 0) throw new Error(`pdftoppm exited ${result.status}: ${result.stderr.toString()}`);
  return decodePng(result.stdout);
}
