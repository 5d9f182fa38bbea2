/**
 * Fills of the colour layers: a solid colour or a gradient laid over a box in canvas pixels, with
 * qr-code-styling's geometry — a linear gradient runs through the box centre at the given angle
 * with its ends on the box edges (rounded to whole pixels), a radial one is centred in the box
 * with half its larger side as radius. Angles are in degrees (as the API documents them), clockwise on screen.
 */
import type { Gradient } from './style/qr-style';
import { toSpaceX, toSpaceY, type PathSpace } from './path-space';
import { element, emptyElement, roundTo, type Attributes } from './svg-markup';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Paint = { kind: 'solid'; color: string } | { kind: 'gradient'; gradient: Gradient; box: Box; extraRotationDegrees: number };

/** A layer's fill as attributes, with the gradient definition it refers to (if any). */
export interface PaintMarkup {
  definition: string;
  fill: Attributes;
}

const HEX_WITH_ALPHA = /^#([0-9a-fA-F]{6})([0-9a-fA-F]{2})$/;

/** `#rrggbbaa` becomes `#rrggbb` plus an opacity, which every SVG renderer understands. */
export function splitAlpha(color: string): { rgb: string; opacity: number | undefined } {
  const match = HEX_WITH_ALPHA.exec(color);
  if (!match) return { rgb: color, opacity: undefined };
  return { rgb: `#${match[1]}`, opacity: roundTo(parseInt(match[2], 16) / 255, 3) };
}

/** End points of a linear gradient, qr-code-styling's rule, from an angle in radians. */
function linearGradientLine(box: Box, radians: number): [x1: number, y1: number, x2: number, y2: number] {
  const fullTurn = 2 * Math.PI;
  const angle = ((radians % fullTurn) + fullTurn) % fullTurn;
  const centreX = box.x + box.width / 2;
  const centreY = box.y + box.height / 2;
  const halfWidth = box.width / 2;
  const halfHeight = box.height / 2;
  const tangent = Math.tan(radians);
  // Closest to horizontal: the ends sit on the left and right edges; closest to vertical: on the
  // top and bottom edges. The quadrant decides which end is the start.
  if (angle <= 0.25 * Math.PI || angle > 1.75 * Math.PI) {
    return [box.x, centreY - halfHeight * tangent, box.x + box.width, centreY + halfHeight * tangent];
  }
  if (angle <= 0.75 * Math.PI) {
    return [centreX - halfWidth / tangent, box.y, centreX + halfWidth / tangent, box.y + box.height];
  }
  if (angle <= 1.25 * Math.PI) {
    return [box.x + box.width, centreY + halfHeight * tangent, box.x, centreY - halfHeight * tangent];
  }
  return [centreX + halfWidth / tangent, box.y + box.height, centreX - halfWidth / tangent, box.y];
}

function gradientStops(gradient: Gradient): string {
  return gradient.colorStops
    .map(({ offset, color }) => {
      const { rgb, opacity } = splitAlpha(color);
      return emptyElement('stop', [
        ['offset', `${roundTo(offset * 100, 2)}%`],
        ['stop-color', rgb],
        ['stop-opacity', opacity],
      ]);
    })
    .join('');
}

/** Where a gradient runs, in the painted element's space: the ends of a linear one, the centre and radius of a radial one. */
export type GradientGeometry =
  { type: 'linear'; x1: number; y1: number; x2: number; y2: number } | { type: 'radial'; cx: number; cy: number; r: number };

/** Gradient geometry is worked out in canvas pixels, then carried into the painted element's space. */
export function gradientGeometry(paint: Extract<Paint, { kind: 'gradient' }>, space: PathSpace): GradientGeometry {
  const { gradient, box } = paint;
  const x = (canvasX: number): number => roundTo(toSpaceX(space, canvasX), 3);
  const y = (canvasY: number): number => roundTo(toSpaceY(space, canvasY), 3);
  if (gradient.type === 'radial') {
    return {
      type: 'radial',
      cx: x(box.x + box.width / 2),
      cy: y(box.y + box.height / 2),
      r: roundTo(Math.max(box.width, box.height) / 2 / space.unit, 3),
    };
  }
  const radians = (((gradient.rotation ?? 0) + paint.extraRotationDegrees) * Math.PI) / 180;
  const [x1, y1, x2, y2] = linearGradientLine(box, radians).map(Math.round);
  return { type: 'linear', x1: x(x1), y1: y(y1), x2: x(x2), y2: y(y2) };
}

function gradientDefinition(paint: Extract<Paint, { kind: 'gradient' }>, id: string, space: PathSpace): string {
  const geometry = gradientGeometry(paint, space);
  if (geometry.type === 'radial') {
    return element(
      'radialGradient',
      [
        ['id', id],
        ['gradientUnits', 'userSpaceOnUse'],
        ['cx', geometry.cx],
        ['cy', geometry.cy],
        ['r', geometry.r],
      ],
      gradientStops(paint.gradient),
    );
  }
  return element(
    'linearGradient',
    [
      ['id', id],
      ['gradientUnits', 'userSpaceOnUse'],
      ['x1', geometry.x1],
      ['y1', geometry.y1],
      ['x2', geometry.x2],
      ['y2', geometry.y2],
    ],
    gradientStops(paint.gradient),
  );
}

/**
 * The fill of an element drawn in `space`; `id` names the gradient when the paint needs one and
 * must be unique in the page.
 */
export function paintMarkup(paint: Paint, id: string, space: PathSpace): PaintMarkup {
  if (paint.kind === 'solid') {
    const { rgb, opacity } = splitAlpha(paint.color);
    return {
      definition: '',
      fill: [
        ['fill', rgb],
        ['fill-opacity', opacity],
      ],
    };
  }
  return { definition: gradientDefinition(paint, id, space), fill: [['fill', `url(#${id})`]] };
}

/** A paint from a style's `color`/`gradient` pair: the gradient wins, as in qr-code-styling. */
export function paintFrom(options: { color?: string; gradient?: Gradient }, fallbackColor: string, box: Box, extraRotationDegrees = 0): Paint {
  if (options.gradient) return { kind: 'gradient', gradient: options.gradient, box, extraRotationDegrees };
  return { kind: 'solid', color: options.color ?? fallbackColor };
}
