/**
 * A drawn code as a vector PDF (pdfkit): the renderer's own paths, its gradients as PDF shadings,
 * the frame's shapes and text outlines, the logo embedded as the image it is. One page, the drawing
 * at its printed size plus an optional bleed, in which the outermost colour runs on so a trimmed edge
 * shows no white line. Colours are written as the style gives them (DeviceRGB), alpha as opacity.
 */
import PDFDocument from 'pdfkit';
import { rasterise } from './svg-raster';
import { gradientGeometry, splitAlpha, type Paint } from '../paint';
import { CANVAS_SPACE, type PathSpace } from '../path-space';
import type { QrDrawing } from '../render-qr-svg';
import type { FrameShape } from '../frames/frame-layout';
import { roundedRectPath } from '../frames/frame-layout';

const POINTS_PER_MM = 72 / 25.4;
/** A WebP logo (which PDF cannot hold) is converted to PNG at this many pixels per drawing pixel. */
const LOGO_RASTER_SCALE = 4;

export interface PdfPage {
  /** printed width of the drawing (frame included), millimetres */
  widthMm: number;
  /** added on every side, millimetres */
  bleedMm: number;
  /** document title (the code's name) */
  title?: string;
}

type Document = InstanceType<typeof PDFDocument>;

function fillSolid(document: Document, color: string): void {
  const { rgb, opacity } = splitAlpha(color);
  document.fillColor(rgb, opacity ?? 1).fill('nonzero');
}

/** Fills the current path with a paint whose gradient is expressed in `space` (the current user space). */
function fillPaint(document: Document, paint: Paint, space: PathSpace): void {
  if (paint.kind === 'solid') {
    fillSolid(document, paint.color);
    return;
  }
  const geometry = gradientGeometry(paint, space);
  const shading =
    geometry.type === 'radial'
      ? document.radialGradient(geometry.cx, geometry.cy, 0, geometry.cx, geometry.cy, geometry.r)
      : document.linearGradient(geometry.x1, geometry.y1, geometry.x2, geometry.y2);
  for (const stop of paint.gradient.colorStops) {
    const { rgb, opacity } = splitAlpha(stop.color);
    shading.stop(stop.offset, rgb, opacity ?? 1);
  }
  document.fillOpacity(1).fill(shading, 'nonzero');
}

function drawShapes(document: Document, shapes: readonly FrameShape[]): void {
  for (const shape of shapes) {
    document.path(shape.d);
    fillSolid(document, shape.color);
  }
}

const DATA_URI = /^data:([^;,]+);base64,(.*)$/s;

type Logo = NonNullable<QrDrawing['parts']['logo']>;
/** An image pdfkit has read (its `openImage`, left out of @types/pdfkit); `image()` draws it as it draws bytes. */
type PdfImage = { width: number; height: number };
type OpensImages = { openImage(src: Buffer): PdfImage };
const openImage = (document: Document, bytes: Buffer): PdfImage => (document as unknown as OpensImages).openImage(bytes);

/**
 * The logo as pdfkit embeds it: PNG and JPEG as they are when pdfkit's own decoders read them (the
 * style check only looked at their signature), anything else drawn from resvg's reading of it, as
 * the PNG export shows it.
 */
async function pdfLogo(document: Document, logo: Logo): Promise<PdfImage | null> {
  const match = DATA_URI.exec(logo.href);
  if (!match) return null;
  const type = match[1].toLowerCase();
  if (type === 'image/png' || type === 'image/jpeg') {
    const opened = openedImage(document, Buffer.from(match[2], 'base64'));
    if (opened) return opened;
  }
  return openImage(document, await rasterisedLogo(logo));
}

/** The image as pdfkit opened it, or null when its decoders cannot read it. */
function openedImage(document: Document, bytes: Buffer): PdfImage | null {
  try {
    return openImage(document, bytes);
  } catch (error) {
    if (error instanceof Error) return null;
    throw error;
  }
}

function rasterisedLogo(logo: Logo): Promise<Buffer> {
  const pixelsWide = Math.max(1, Math.round(logo.width * LOGO_RASTER_SCALE));
  const pixelsHigh = Math.max(1, Math.round(logo.height * LOGO_RASTER_SCALE));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixelsWide}" height="${pixelsHigh}">` +
    `<image href="${logo.href}" width="${pixelsWide}" height="${pixelsHigh}"/></svg>`;
  return rasterise(svg);
}

function drawLogo(document: Document, logo: Logo, image: PdfImage): void {
  document.image(image as unknown as Buffer, logo.x, logo.y, { fit: [logo.width, logo.height], align: 'center', valign: 'center' });
}

/**
 * The drawing's outermost solid colour, which the bleed continues, and how far in it reaches
 * everywhere (past a frame's rounded corners); null when the edge is transparent or not one colour.
 */
function edgeOf(drawing: QrDrawing): { color: string; inset: number } | null {
  if (drawing.frame) return drawing.frame.edgeColor ? { color: drawing.frame.edgeColor, inset: drawing.frame.edgeWidth } : null;
  const background = drawing.parts.background;
  return background && background.paint.kind === 'solid' && background.round === 0 ? { color: background.paint.color, inset: 0 } : null;
}

function drawCode(document: Document, drawing: QrDrawing, logo: PdfImage | null): void {
  const { parts } = drawing;
  if (parts.background) {
    const { size } = parts;
    const radius = parts.background.round > 0 ? (size / 2) * parts.background.round : 0;
    document.path(roundedRectPath(0, 0, size, size, radius));
    fillPaint(document, parts.background.paint, CANVAS_SPACE);
  }
  for (const layer of parts.layers) {
    if (layer.path.isEmpty) continue;
    document.save();
    document.transform(layer.space.unit, 0, 0, layer.space.unit, layer.space.originX, layer.space.originY);
    document.path(layer.path.toString());
    fillPaint(document, layer.paint, layer.space);
    document.restore();
  }
  if (parts.logo && logo) drawLogo(document, parts.logo, logo);
}

export async function drawingToPdf(drawing: QrDrawing, page: PdfPage): Promise<Buffer> {
  const scale = (page.widthMm * POINTS_PER_MM) / drawing.width;
  const bleed = page.bleedMm * POINTS_PER_MM;
  const pageWidth = drawing.width * scale + 2 * bleed;
  const pageHeight = drawing.height * scale + 2 * bleed;
  const document = new PDFDocument({
    size: [pageWidth, pageHeight],
    margin: 0,
    compress: true,
    info: { Title: page.title ?? 'QR code', Producer: 'QR code service', Creator: 'QR code service' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });

  const logo = drawing.parts.logo ? await pdfLogo(document, drawing.parts.logo) : null;
  const edge = bleed > 0 ? edgeOf(drawing) : null;
  if (edge) {
    // A ring from the page's edge to just inside the drawing's: what lies further in stays as drawn (a transparent inside too).
    const inset = edge.inset * scale;
    document.path(
      roundedRectPath(0, 0, pageWidth, pageHeight, 0) +
        roundedRectPath(bleed + inset, bleed + inset, pageWidth - 2 * (bleed + inset), pageHeight - 2 * (bleed + inset), 0, true),
    );
    fillSolid(document, edge.color);
  }
  document.save();
  document.translate(bleed, bleed);
  document.scale(scale);
  const { frame } = drawing;
  if (frame) drawShapes(document, frame.below);
  document.save();
  if (frame) document.translate(frame.codeX, frame.codeY);
  drawCode(document, drawing, logo);
  document.restore();
  if (frame) drawShapes(document, frame.above);
  document.restore();
  document.end();
  return done;
}
