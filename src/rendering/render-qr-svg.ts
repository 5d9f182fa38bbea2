/**
 * Renders a QR code as a standalone SVG document following qr-code-styling v1.9's drawing model
 * (docs/styling-and-scannability.md), with two departures for scannability: finder parts that would
 * be loose circles get a solid figure (style/finder-defaults.ts), and shapes degrade to squares
 * below a measured module width (module-size-rule.ts). Compact output: one path per colour layer (per corner when a corner has its
 * own gradient), gradients as the only definitions, no scripts and no external references.
 * Pure: the same input always gives the same string.
 */
import { resolveFinderTypes } from './style/finder-defaults';
import { resolveErrorCorrectionLevel, type ErrorCorrectionLevel, type QrStyle } from './style/qr-style';
import { decorativeModules } from './circle-shape';
import { defaultMargin, layoutCode, type CodeLayout } from './code-layout';
import { checkIdPrefix, derivedIdPrefix } from './document-ids';
import {
  cornerDotBox,
  cornerDotDrawing,
  cornerSquareBox,
  cornerSquareDrawing,
  finderPositions,
  isInFinderArea,
  writeCornerDot,
  writeCornerSquare,
} from './finder-patterns';
import { imageDimensions } from './image-dimensions';
import { isUnderLogo, placeLogo, type LogoPlacement } from './logo-placement';
import { writeModules } from './module-drawing';
import { moduleShapeAt, SHAPE_THRESHOLDS, type ShapeThresholds } from './module-size-rule';
import type { ModuleGrid } from './module-grid';
import { paintFrom, type Paint } from './paint';
import { codeSpace, UNITS_PER_MODULE, type PathSpace } from './path-space';
import { minimumDrawnVersion } from './drawn-version';
import { buildQrMatrix, type QrMatrix } from './qr-matrix';
import { writeSvgDocument, type ColourLayer, type SvgDocumentParts } from './svg-document';
import { layoutFrame, resolveFrame, type FrameLayout } from './frames/frame-layout';
import { compositeOver, parseHexColor, WHITE } from './style/rgba-color';
import { PathWriter } from './svg-path-writer';

export interface RenderQrSvgInput {
  text: string;
  style: QrStyle;
  /** width and height of the image, pixels */
  size: number;
  /** prefix of the document's element ids (letters, digits, `-`, `_`); derived from the input when absent */
  idPrefix?: string;
  /** module widths below which shapes are drawn as squares; the measured SHAPE_THRESHOLDS unless given */
  shapeThresholds?: ShapeThresholds;
}

const DEFAULT_DOTS_COLOR = '#000';
const DEFAULT_BACKGROUND_COLOR = '#fff';
const DEFAULT_IMAGE_SIZE = 0.4;
/** Without readable header dimensions the logo is taken as square. */
const SQUARE_IMAGE = { width: 1, height: 1 };

/**
 * The modules the dots layer draws, in the path space: data modules minus the finder areas and
 * the logo's hidden area, plus the circle shape's decorative modules around the code.
 */
function dotsGrid(matrix: QrMatrix, layout: CodeLayout, hiddenByLogo: LogoPlacement | null, circle: boolean): ModuleGrid {
  const count = matrix.size;
  const extended = circle ? decorativeModules(matrix, layout) : null;
  const size = extended ? extended.size : count;
  const border = extended ? extended.border : 0;
  const dark = extended ? extended.decorative : new Uint8Array(count * count);
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (matrix.modules[row * count + col] === 0 || isInFinderArea(count, row, col)) continue;
      if (hiddenByLogo && isUnderLogo(hiddenByLogo, count, row, col)) continue;
      dark[(row + border) * size + col + border] = 1;
    }
  }
  const origin = -border * UNITS_PER_MODULE;
  return { size, dark, x: origin, y: origin, moduleSize: UNITS_PER_MODULE };
}

/**
 * Layers of the three finder patterns. A corner part with its own colour or gradient gets its own
 * layer — one for all three corners with a solid colour, one per corner with a gradient (each laid
 * over that corner, rotated with it as qr-code-styling does); otherwise it joins the layer it falls
 * back to: corner dots to the corner squares', corner squares to the dots'.
 */
function drawFinderPatterns(
  style: QrStyle,
  matrix: QrMatrix,
  layout: CodeLayout,
  space: PathSpace,
  dotsLayer: ColourLayer,
  layers: ColourLayer[],
  thresholds: ShapeThresholds,
): void {
  const dotsType = style.dotsOptions?.type ?? 'square';
  const finderTypes = resolveFinderTypes(style);
  const squareOptions = style.cornersSquareOptions ?? {};
  const dotOptions = style.cornersDotOptions ?? {};
  const squareHasPaint = Boolean(squareOptions.color || squareOptions.gradient);
  const dotHasPaint = Boolean(dotOptions.color || dotOptions.gradient);
  const { moduleSize } = layout;
  const squareDrawing = cornerSquareDrawing(finderTypes.cornersSquareType, dotsType, moduleSize, thresholds);
  const dotDrawing = cornerDotDrawing(finderTypes.cornersDotType, dotsType, moduleSize, thresholds);

  const layerFor = (name: string, paint: Paint, shared: boolean, corner: number) =>
    cornerLayer(layers, shared ? name : `${name}${corner}`, paint, space);
  finderPositions(matrix.size).forEach((position, corner) => {
    // Gradient boxes in canvas pixels (qr-code-styling's geometry), figures in the path space.
    const canvasX = layout.x + position.col * moduleSize;
    const canvasY = layout.y + position.row * moduleSize;
    const squareLayer = squareHasPaint
      ? layerFor(
          'cs',
          paintFrom(squareOptions, DEFAULT_DOTS_COLOR, cornerSquareBox(canvasX, canvasY, moduleSize), position.rotationDegrees),
          !squareOptions.gradient,
          corner,
        )
      : dotsLayer;
    const dotLayer = dotHasPaint
      ? layerFor(
          'cd',
          paintFrom(dotOptions, DEFAULT_DOTS_COLOR, cornerDotBox(canvasX, canvasY, moduleSize), position.rotationDegrees),
          !dotOptions.gradient,
          corner,
        )
      : squareLayer;
    const x = position.col * UNITS_PER_MODULE;
    const y = position.row * UNITS_PER_MODULE;
    writeCornerSquare(squareLayer.path, squareDrawing, x, y, UNITS_PER_MODULE);
    writeCornerDot(dotLayer.path, dotDrawing, squareDrawing, x, y, UNITS_PER_MODULE);
  });
}

/** The layer of that name among `layers`, added (with `paint`) when it is not there yet. */
function cornerLayer(layers: ColourLayer[], name: string, paint: Paint, space: PathSpace): ColourLayer {
  let layer = layers.find((candidate) => candidate.name === name);
  if (!layer) {
    layer = { name, paint, path: new PathWriter(), space };
    layers.push(layer);
  }
  return layer;
}

/** A code drawn, before it is written out as SVG (or, by src/rendering/export/, as PDF). */
export interface QrDrawing {
  parts: SvgDocumentParts;
  layout: CodeLayout;
  /** the frame around the code's canvas, null without one */
  frame: FrameLayout | null;
  /** width and height of the whole drawing, pixels: the code's canvas, or the frame around it */
  width: number;
  height: number;
}

export function renderQrSvg(input: RenderQrSvgInput): string {
  return writeSvgDocument(drawQrCode(input).parts);
}

/**
 * Light padding that completes the quiet zone when the style's margin leaves less: four modules
 * around a square code (ISO/IEC 18004), two outside the circle shape's decorative ring (its own
 * default border). Only a frame needs it: without one the page around the image is the quiet zone.
 */
function quietZonePadding(layout: CodeLayout, shape: string): number {
  const [border, needed] =
    shape === 'circle'
      ? [(layout.canvasSize - layout.drawingSize) / 2, 2 * layout.moduleSize]
      : [Math.min(layout.x, layout.y), 4 * layout.moduleSize];
  return Math.max(0, Math.ceil(needed - border));
}

export function drawQrCode(input: RenderQrSvgInput): QrDrawing {
  const { text, style, size } = input;
  const explicitIdPrefix = input.idPrefix === undefined ? undefined : checkIdPrefix(input.idPrefix);
  const level = resolveErrorCorrectionLevel(style);
  const matrix = buildQrMatrix(text, level, minimumDrawnVersion(style));
  const shape = style.shape ?? 'square';
  const layout = layoutCode(size, matrix.size, style.margin ?? defaultMargin(size, matrix.size, shape), shape, style.dotsOptions?.roundSize ?? true);
  const canvasBox = { x: 0, y: 0, width: size, height: size };

  const logo = placeStyleLogo(style, layout, level);
  const hiddenByLogo = logo && (style.imageOptions?.hideBackgroundDots ?? true) ? logo : null;

  const space = codeSpace(layout);
  const dotsLayer: ColourLayer = {
    name: 'dots',
    paint: paintFrom(style.dotsOptions ?? {}, DEFAULT_DOTS_COLOR, canvasBox),
    path: new PathWriter(),
    space,
  };
  const thresholds = input.shapeThresholds ?? SHAPE_THRESHOLDS;
  const dotsShape = moduleShapeAt(style.dotsOptions?.type ?? 'square', layout.moduleSize, thresholds);
  writeModules(dotsGrid(matrix, layout, hiddenByLogo, shape === 'circle'), dotsShape, dotsLayer.path);
  const layers: ColourLayer[] = [dotsLayer];
  drawFinderPatterns(style, matrix, layout, space, dotsLayer, layers, thresholds);

  const background = backgroundOf(style, canvasBox);
  const resolvedFrame = resolveFrame(style.frameOptions);
  const frame = resolvedFrame
    ? layoutFrame({ frame: resolvedFrame, codeSize: size, padding: quietZonePadding(layout, shape), backgroundColor: solidBackgroundColor(style) })
    : null;

  const parts: SvgDocumentParts = {
    size,
    idPrefix: () => explicitIdPrefix ?? derivedIdPrefix(text, style, size),
    crispEdges: style.dotsOptions?.roundSize === false,
    background,
    layers,
    logo:
      logo && style.image && logo.width > 0 && logo.height > 0
        ? { href: style.image, x: logo.x, y: logo.y, width: logo.width, height: logo.height }
        : null,
    frame,
  };
  return { parts, layout, frame, width: frame?.width ?? size, height: frame?.height ?? size };
}

/** The style's logo placed on the code, or null without one. */
function placeStyleLogo(style: QrStyle, layout: CodeLayout, level: ErrorCorrectionLevel): LogoPlacement | null {
  if (!style.image) return null;
  const imageOptions = style.imageOptions ?? {};
  return placeLogo(
    layout,
    imageDimensions(style.image) ?? SQUARE_IMAGE,
    imageOptions.imageSize ?? DEFAULT_IMAGE_SIZE,
    level,
    imageOptions.margin ?? 0,
  );
}

/** The background under the code's canvas, null when transparent. */
function backgroundOf(style: QrStyle, canvasBox: { x: number; y: number; width: number; height: number }): SvgDocumentParts['background'] {
  const backgroundOptions = style.backgroundOptions ?? {};
  const backgroundColor = backgroundOptions.color ?? DEFAULT_BACKGROUND_COLOR;
  if (!backgroundOptions.gradient && backgroundColor === 'transparent') return null;
  return {
    paint: paintFrom({ ...backgroundOptions, color: backgroundColor }, DEFAULT_BACKGROUND_COLOR, canvasBox),
    round: backgroundOptions.round ?? 0,
  };
}

/**
 * The code's background as one opaque colour, for the frame to continue it: a translucent colour
 * laid on white, a gradient's first stop; null when transparent.
 */
function solidBackgroundColor(style: QrStyle): string | null {
  const options = style.backgroundOptions ?? {};
  const color = options.gradient ? options.gradient.colorStops[0].color : (options.color ?? DEFAULT_BACKGROUND_COLOR);
  if (color === 'transparent') return null;
  const { r, g, b } = compositeOver(parseHexColor(color), WHITE);
  const hex = (channel: number) => Math.round(channel).toString(16).padStart(2, '0');
  return `#${hex(r)}${hex(g)}${hex(b)}`;
}
