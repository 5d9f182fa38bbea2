/**
 * Builds compact path data: coordinates are kept in integer hundredths of a pixel, every command
 * after the first is relative, and subpaths start with a relative move from the previous subpath's
 * start (where `z` leaves the pen). Deltas are taken between rounded positions, so rounding never
 * accumulates along a path.
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

export class PathWriter {
  private data = '';
  private x = 0;
  private y = 0;
  private subpathX = 0;
  private subpathY = 0;
  private started = false;

  get isEmpty(): boolean {
    return this.data.length === 0;
  }

  toString(): string {
    return this.data;
  }

  /** Appends numbers, separated by a space unless the next one carries its own minus sign. */
  private numbers(values: readonly number[]): void {
    for (let index = 0; index < values.length; index++) {
      const text = formatHundredths(values[index]);
      if (index > 0 && text[0] !== '-') this.data += ' ';
      this.data += text;
    }
  }

  moveTo(x: number, y: number): void {
    const targetX = toHundredths(x);
    const targetY = toHundredths(y);
    if (this.started) {
      this.data += 'm';
      this.numbers([targetX - this.subpathX, targetY - this.subpathY]);
    } else {
      this.data += 'M';
      this.numbers([targetX, targetY]);
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
    if (dy === 0) {
      this.data += 'h';
      this.numbers([dx]);
    } else if (dx === 0) {
      this.data += 'v';
      this.numbers([dy]);
    } else {
      this.data += 'l';
      this.numbers([dx, dy]);
    }
    this.x = targetX;
    this.y = targetY;
  }

  /** Circular arc to (x, y); `clockwise` on screen (SVG sweep flag 1). */
  arcTo(radius: number, largeArc: boolean, clockwise: boolean, x: number, y: number): void {
    const targetX = toHundredths(x);
    const targetY = toHundredths(y);
    const r = formatHundredths(toHundredths(radius));
    this.data += `a${r} ${r} 0 ${largeArc ? 1 : 0} ${clockwise ? 1 : 0}`;
    const dx = formatHundredths(targetX - this.x);
    const dy = formatHundredths(targetY - this.y);
    this.data += `${dx[0] === '-' ? '' : ' '}${dx}${dy[0] === '-' ? '' : ' '}${dy}`;
    this.x = targetX;
    this.y = targetY;
  }

  close(): void {
    this.data += 'z';
    this.x = this.subpathX;
    this.y = this.subpathY;
  }
}
