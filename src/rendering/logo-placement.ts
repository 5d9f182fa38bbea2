/**
 * The logo's size and the modules it hides, by qr-code-styling's rule: the logo may cover
 * `imageSize` × (the share of the code the error-correction level can repair) of the modules; the
 * hidden area is an odd number of modules on each axis (so it stays centred on the grid), keeps
 * the image's aspect ratio, and never reaches into the finder patterns (count − 14 per axis).
 */
import type { ErrorCorrectionLevel } from './style/qr-style';
import { snap, type CodeLayout } from './code-layout';
import type { ImageDimensions } from './image-dimensions';

/** Share of modules each level can restore, as qr-code-styling counts it. */
const RECOVERABLE_SHARE: Record<ErrorCorrectionLevel, number> = { L: 0.07, M: 0.15, Q: 0.25, H: 0.3 };

export interface LogoPlacement {
  /** modules hidden around the centre, per axis (odd) */
  hiddenColumns: number;
  hiddenRows: number;
  /** where the image is drawn, pixels (the logo margin already taken off) */
  x: number;
  y: number;
  width: number;
  height: number;
}

interface HiddenArea {
  columns: number;
  rows: number;
  width: number;
  height: number;
}

/** Odd number of modules at least covering `modules` (as qr-code-styling rounds the other axis). */
function oddCeiling(modules: number): number {
  return 1 + 2 * Math.ceil((modules - 1) / 2);
}

function hiddenArea(image: ImageDimensions, maxHiddenModules: number, maxPerAxis: number, moduleSize: number): HiddenArea {
  const none = { columns: 0, rows: 0, width: 0, height: 0 };
  if (maxHiddenModules <= 0 || moduleSize <= 0) return none;
  const aspect = image.height / image.width;

  // Widest odd column count whose proportional area fits the allowance.
  let columns = Math.max(1, Math.floor(Math.sqrt(maxHiddenModules / aspect)));
  if (maxPerAxis > 0 && columns > maxPerAxis) columns = maxPerAxis;
  if (columns % 2 === 0) columns--;
  let rows = oddCeiling(columns * aspect);
  let width = columns * moduleSize;
  let height = Math.round(width * aspect);

  // Too many modules, or too tall: derive the columns from the largest allowed rows instead.
  const tooTall = maxPerAxis > 0 && rows > maxPerAxis;
  if (rows * columns > maxHiddenModules || tooTall) {
    rows = tooTall ? maxPerAxis : rows - 2;
    height = rows * moduleSize;
    columns = oddCeiling(rows / aspect);
    width = Math.round(height / aspect);
  }
  return { columns, rows, width, height };
}

export function placeLogo(
  layout: CodeLayout,
  image: ImageDimensions,
  imageSize: number,
  level: ErrorCorrectionLevel,
  logoMargin: number,
): LogoPlacement {
  const count = layout.moduleCount;
  const maxHiddenModules = Math.floor(imageSize * RECOVERABLE_SHARE[level] * count * count);
  const area = hiddenArea(image, maxHiddenModules, count - 14, layout.moduleSize);
  const codeSide = count * layout.moduleSize;
  return {
    hiddenColumns: area.columns,
    hiddenRows: area.rows,
    x: layout.x + snap(layout, logoMargin + (codeSide - area.width) / 2),
    y: layout.y + snap(layout, logoMargin + (codeSide - area.height) / 2),
    width: area.width - logoMargin * 2,
    height: area.height - logoMargin * 2,
  };
}

/** Whether a module lies in the centred area the logo hides. */
export function isUnderLogo(placement: LogoPlacement, count: number, row: number, col: number): boolean {
  return (
    row >= (count - placement.hiddenRows) / 2 &&
    row < (count + placement.hiddenRows) / 2 &&
    col >= (count - placement.hiddenColumns) / 2 &&
    col < (count + placement.hiddenColumns) / 2
  );
}
