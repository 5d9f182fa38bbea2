/**
 * Builds compact path data: coordinates are kept in integer hundredths of a pixel, every command
 * after the first is relative, and subpaths start with a relative move from the previous subpath's
 * start (where `z` leaves the pen). Deltas are taken between rounded positions, so rounding never
 * accumulates along a path. Two quarter-circle arcs in a row that make a half circle (the round end
 * of a line of modules, half of a lone round module) are written as one arc.
 */

const SCALE = 100;

function toHundredths(value: number): number {
  return Math.round(value * SCALE);
}

/** Shortest decimal text of a value in hundredths: 450 → "4.5", -50 → "-.5". */
function formatHundredths(value: number): string {
  if (value % SCALE === 0) return String(value / SCALE);
  const text = String(value / SCALE);
  if (text.startsWith('0.')) return text.slice(1);
  if (text.startsWith('-0.')) return '-' + text.slice(2);
  return text;
}

/** Two numbers, separated by a space unless the second carries its own minus sign. */
function pair(first: number, second: number): string {
  const secondText = formatHundredths(second);
  return formatHundredths(first) + (secondText[0] === '-' ? '' : ' ') + secondText;
}

/** An arc not written yet, in hundredths, in case the next one continues it into a half circle. */
interface PendingArc {
  radius: number;
  clockwise: boolean;
  dx: number;
  dy: number;
  /** already a half circle made of two quarters */
  merged: boolean;
}

function isQuarterCircle(radius: number, dx: number, dy: number): boolean {
  return dx * dx + dy * dy === 2 * radius * radius;
}

function isHalfCircle(radius: number, dx: number, dy: number): boolean {
  return dx * dx + dy * dy === 4 * radius * radius;
}

export class PathWriter {
  private data = '';
  private pendingArc: PendingArc | null = null;
  private x = 0;
  private y = 0;
  private subpathX = 0;
  private subpathY = 0;
  private started = false;

  get isEmpty(): boolean {
    return this.data.length === 0 && this.pendingArc === null;
  }

  toString(): string {
    this.flushArc();
    return this.data;
  }

  moveTo(x: number, y: number): void {
    this.flushArc();
    const targetX = toHundredths(x);
    const targetY = toHundredths(y);
    if (this.started) {
      this.data += 'm' + pair(targetX - this.subpathX, targetY - this.subpathY);
    } else {
      this.data += 'M' + pair(targetX, targetY);
      this.started = true;
    }
    this.x = this.subpathX = targetX;
    this.y = this.subpathY = targetY;
  }

  /** A horizontal or vertical line (or a general one); nothing for a zero-length line. */
  lineTo(x: number, y: number): void {
    const targetX = toHundredths(x);
    const targetY = toHundredths(y);
    const dx = targetX - this.x;
    const dy = targetY - this.y;
    if (dx === 0 && dy === 0) return;
    this.flushArc();
    if (dy === 0) this.data += 'h' + formatHundredths(dx);
    else if (dx === 0) this.data += 'v' + formatHundredths(dy);
    else this.data += 'l' + pair(dx, dy);
    this.x = targetX;
    this.y = targetY;
  }

  /** Circular arc to (x, y); `clockwise` on screen (SVG sweep flag 1). */
  arcTo(radius: number, largeArc: boolean, clockwise: boolean, x: number, y: number): void {
    const targetX = toHundredths(x);
    const targetY = toHundredths(y);
    const r = toHundredths(radius);
    const dx = targetX - this.x;
    const dy = targetY - this.y;
    this.x = targetX;
    this.y = targetY;
    const pending = this.pendingArc;
    if (
      pending &&
      !pending.merged &&
      !largeArc &&
      pending.radius === r &&
      pending.clockwise === clockwise &&
      isQuarterCircle(r, pending.dx, pending.dy) &&
      isQuarterCircle(r, dx, dy) &&
      isHalfCircle(r, pending.dx + dx, pending.dy + dy)
    ) {
      pending.dx += dx;
      pending.dy += dy;
      pending.merged = true;
      return;
    }
    this.flushArc();
    if (largeArc) {
      this.writeArc(r, true, clockwise, dx, dy);
      return;
    }
    this.pendingArc = { radius: r, clockwise, dx, dy, merged: false };
  }

  private flushArc(): void {
    const pending = this.pendingArc;
    if (!pending) return;
    this.pendingArc = null;
    this.writeArc(pending.radius, false, pending.clockwise, pending.dx, pending.dy);
  }

  private writeArc(radius: number, largeArc: boolean, clockwise: boolean, dx: number, dy: number): void {
    const r = formatHundredths(radius);
    const end = pair(dx, dy);
    this.data += `a${r} ${r} 0 ${largeArc ? 1 : 0} ${clockwise ? 1 : 0}${end[0] === '-' ? '' : ' '}${end}`;
  }

  close(): void {
    this.flushArc();
    this.data += 'z';
    this.x = this.subpathX;
    this.y = this.subpathY;
  }
}
