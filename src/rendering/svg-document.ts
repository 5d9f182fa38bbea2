/**
 * Assembles the SVG document: root element, gradient definitions, background, one path per colour
 * layer, and the logo on top, in qr-code-styling's painting order.
 */
import { paintMarkup, splitAlpha, type Paint } from './paint';
import type { FrameLayout, FrameShape } from './frames/frame-layout';
import { CANVAS_SPACE, spaceTransform, type PathSpace } from './path-space';
import { element, emptyElement, roundTo } from './svg-markup';
import type { PathWriter } from './svg-path-writer';

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

export interface ColourLayer {
  /** short name, also the gradient id suffix; unique in the document */
  name: string;
  paint: Paint;
  path: PathWriter;
  /** the coordinate space the path is written in */
  space: PathSpace;
}

export interface SvgDocumentParts {
  size: number;
  /** called only when the document needs ids (it has a gradient) */
  idPrefix: () => string;
  /** qr-code-styling turns anti-aliasing off when modules are not pixel-aligned */
  crispEdges: boolean;
  background: { paint: Paint; round: number } | null;
  layers: readonly ColourLayer[];
  logo: { href: string; x: number; y: number; width: number; height: number } | null;
  /** a frame around the code's canvas (frames/frame-layout.ts); the document then has the frame's size */
  frame?: FrameLayout | null;
}

/** Width and height written on the root element in place of pixels, e.g. millimetres for print. */
export interface SvgDimensions {
  width: string;
  height: string;
}

function framePaths(shapes: readonly FrameShape[]): string {
  return shapes
    .map((shape) => {
      const { rgb, opacity } = splitAlpha(shape.color);
      return emptyElement('path', [
        ['fill', rgb],
        ['fill-opacity', opacity],
        ['d', shape.d],
      ]);
    })
    .join('');
}

export function writeSvgDocument(parts: SvgDocumentParts, dimensions?: SvgDimensions): string {
  const { size, frame } = parts;
  let prefix: string | undefined;
  const idFor = (name: string): string => `${(prefix ??= parts.idPrefix())}-${name}`;
  let definitions = '';
  let body = '';

  if (parts.background) {
    const { definition, fill } = paintMarkup(parts.background.paint, parts.background.paint.kind === 'gradient' ? idFor('bg') : '', CANVAS_SPACE);
    definitions += definition;
    const cornerRadius = parts.background.round > 0 ? roundTo((size / 2) * parts.background.round, 2) : undefined;
    body += emptyElement('rect', [['width', size], ['height', size], ['rx', cornerRadius], ...fill]);
  }

  for (const layer of parts.layers) {
    if (layer.path.isEmpty) continue;
    const { definition, fill } = paintMarkup(layer.paint, layer.paint.kind === 'gradient' ? idFor(layer.name) : '', layer.space);
    definitions += definition;
    body += emptyElement('path', [['transform', spaceTransform(layer.space)], ...fill, ['d', layer.path.toString()]]);
  }

  if (parts.logo) {
    const { href, x, y, width, height } = parts.logo;
    body += emptyElement('image', [
      ['href', href],
      ['x', roundTo(x, 2)],
      ['y', roundTo(y, 2)],
      ['width', roundTo(width, 2)],
      ['height', roundTo(height, 2)],
    ]);
  }

  if (frame) {
    const placed = frame.codeX === 0 && frame.codeY === 0 ? body : element('g', [['transform', `translate(${frame.codeX} ${frame.codeY})`]], body);
    body = framePaths(frame.below) + placed + framePaths(frame.above);
  }
  const width = frame?.width ?? size;
  const height = frame?.height ?? size;
  return element(
    'svg',
    [
      ['xmlns', SVG_NAMESPACE],
      ['width', dimensions?.width ?? width],
      ['height', dimensions?.height ?? height],
      ['viewBox', `0 0 ${width} ${height}`],
      ['shape-rendering', parts.crispEdges ? 'crispEdges' : undefined],
    ],
    (definitions ? element('defs', [], definitions) : '') + body,
  );
}
