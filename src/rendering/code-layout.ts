/**
 * Where the code sits on the canvas, by qr-code-styling's rules: the margin is taken off every
 * side, the `circle` shape fits the code inside a circle of that area (side / √2), modules are a
 * whole number of pixels when `roundSize` is on (the default) and the code is centred.
 */
import type { Shape } from './style/qr-style';
import { MIN_PIXELS_PER_MODULE } from './module-size-rule';

export interface CodeLayout {
  /** canvas side, pixels */
  canvasSize: number;
  /** canvas side minus the margin on both sides: the square (or circle) the drawing fills */
  drawingSize: number;
  moduleCount: number;
  /** module side, pixels */
  moduleSize: number;
  /** top-left corner of the code, pixels */
  x: number;
  y: number;
  /** whether sizes and positions are floored to whole pixels (qr-code-styling's `roundSize`) */
  pixelAligned: boolean;
}

/**
 * The quiet zone when the style sets no `margin`: four modules, the width ISO/IEC 18004 asks of
 * the light border, for the square shape; the circle shape surrounds the code with its own
 * decorative modules and keeps a two-module border outside them.
 */
export function defaultMargin(canvasSize: number, moduleCount: number, shape: Shape): number {
  if (shape === 'circle') return (2 * canvasSize) / (moduleCount * Math.SQRT2 + 4);
  return (4 * canvasSize) / (moduleCount + 8);
}

export function layoutCode(canvasSize: number, moduleCount: number, margin: number, shape: Shape, roundSize: boolean): CodeLayout {
  // A margin that leaves modules narrower than MIN_PIXELS_PER_MODULE is cut back (scanners miss
  // them, docs/styling-and-scannability.md#quiet-zone-and-margin); when even no margin cannot give
  // them that, to one pixel per module, as qr-code-styling cuts it.
  const codeToDrawing = shape === 'circle' ? Math.SQRT2 : 1;
  const marginFor = (pixelsPerModule: number) => (canvasSize - moduleCount * pixelsPerModule * codeToDrawing) / 2;
  const widestMargin = marginFor(MIN_PIXELS_PER_MODULE) >= 0 ? marginFor(MIN_PIXELS_PER_MODULE) : marginFor(1);
  const clampedMargin = Math.max(0, Math.min(margin, widestMargin));
  const drawingSize = canvasSize - clampedMargin * 2;
  const codeSize = shape === 'circle' ? drawingSize / Math.SQRT2 : drawingSize;
  const exactModuleSize = codeSize / moduleCount;
  // Flooring would make modules vanish when the code has more modules than pixels: the SVG is
  // still a valid vector drawing then, just not aligned to pixels at this size.
  const pixelAligned = roundSize && exactModuleSize >= 1;
  const moduleSize = pixelAligned ? Math.floor(exactModuleSize) : exactModuleSize;
  const offset = (canvasSize - moduleCount * moduleSize) / 2;
  const position = pixelAligned ? Math.floor(offset) : offset;
  return { canvasSize, drawingSize, moduleCount, moduleSize, x: position, y: position, pixelAligned };
}

/** Floors a length to whole pixels when the layout is pixel-aligned. */
export function snap(layout: CodeLayout, value: number): number {
  return layout.pixelAligned ? Math.floor(value) : value;
}
