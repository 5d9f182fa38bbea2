import { rasteriseSvg } from '../../test/support/decode-svg';
import { buildQrMatrix } from './qr-matrix';
import { renderQrSvg } from './render-qr-svg';

/**
 * What docs/styling-and-scannability.md#quiet-zone-and-margin promises of `margin`: at least that
 * many pixels; modules are whole pixels and the code is centred, so the border is the margin plus
 * half of what whole modules leave over, floor(((size − 2·margin) mod n) / 2), less than n / 2
 * pixels more (n: modules per side); a margin that would leave modules under 2 px is cut back to
 * floor((size − 2n) / 2). Checked on the README's own code (rounded dots, margin 16) at the first
 * dark pixel of each side.
 */
const README_LINK = 'http://localhost:3001/r/aB3dE5gH';
const STYLE = { dotsOptions: { type: 'rounded', color: '#1a237e' } } as const;

function promisedBorder(size: number, margin: number, n: number): number {
  if (size - 2 * margin < 2 * n) return Math.floor((size - 2 * n) / 2);
  return margin + Math.floor(((size - 2 * margin) % n) / 2);
}

function darkEdges(svg: string): { left: number; top: number; right: number; bottom: number } {
  const { pixels, width, height } = rasteriseSvg(svg);
  const edges = { left: width, top: height, right: width, bottom: height };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (pixels[(y * width + x) * 4] >= 128) continue;
      edges.left = Math.min(edges.left, x);
      edges.top = Math.min(edges.top, y);
      edges.right = Math.min(edges.right, width - 1 - x);
      edges.bottom = Math.min(edges.bottom, height - 1 - y);
    }
  }
  return edges;
}

describe('margin: at least that many pixels, as the docs say', () => {
  const n = buildQrMatrix(README_LINK, 'M').size;

  it("the README's code has its first dark pixel at 19, 24 and 21 px at sizes 300, 600 and 1000 (issue 35), as the formula says", () => {
    expect(n).toBe(29);
    expect([300, 600, 1000].map((size) => darkEdges(renderQrSvg({ text: README_LINK, style: { ...STYLE, margin: 16 }, size })).left)).toEqual([
      19, 24, 21,
    ]);
  });

  it.each([
    [300, 16],
    [600, 16],
    [1000, 16],
    [301, 16],
    [512, 0],
    [777, 40],
    [200, 100],
    [120, 30],
  ])('size %i, margin %i: the first dark pixel is where the docs put it', (size, margin) => {
    const edges = darkEdges(renderQrSvg({ text: README_LINK, style: { ...STYLE, margin }, size }));
    const border = promisedBorder(size, margin, n);
    expect(edges.left).toBe(border);
    expect(edges.top).toBe(border);
    if (size - 2 * margin >= 2 * n) {
      expect(border).toBeGreaterThanOrEqual(margin);
      expect(border - margin).toBeLessThan(n / 2);
      // The other sides keep at least the margin too (the odd pixel of the leftover goes right and down).
      expect(Math.min(edges.right, edges.bottom)).toBeGreaterThanOrEqual(margin);
    } else expect(border).toBeLessThan(margin);
  });
});
