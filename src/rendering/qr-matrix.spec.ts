import QRCode from 'qrcode';
import { ERROR_CORRECTION_LEVELS, type ErrorCorrectionLevel } from './style/qr-style';
import { buildQrMatrix, QrCapacityError, type QrMatrix } from './qr-matrix';

/** Mask number from the first copy of the format bits (row/column 8 around the top-left finder). */
function maskOf(matrix: QrMatrix): number {
  const positions: Array<[number, number]> = [
    [0, 8],
    [1, 8],
    [2, 8],
    [3, 8],
    [4, 8],
    [5, 8],
    [7, 8],
    [8, 8],
    [8, 7],
    [8, 5],
    [8, 4],
    [8, 3],
    [8, 2],
    [8, 1],
    [8, 0],
  ];
  let bits = 0;
  positions.forEach(([row, col], index) => {
    if (matrix.isDark(row, col)) bits |= 1 << index;
  });
  return ((bits ^ 0x5412) >>> 10) & 0b111;
}

/** The `qrcode` package's symbol for the same segment, version and mask: the reference encoder. */
function referenceModules(text: string, level: ErrorCorrectionLevel, version: number, mask: number): Uint8Array {
  const mode = /^[0-9]*$/.test(text) ? 'numeric' : /^[0-9A-Z $%*+\-./:]*$/.test(text) ? 'alphanumeric' : 'byte';
  const data = mode === 'byte' ? new TextEncoder().encode(text) : text;
  const symbol = QRCode.create([{ data, mode } as QRCode.QRCodeSegment], {
    errorCorrectionLevel: level,
    version,
    maskPattern: mask as QRCode.QRCodeMaskPattern,
  });
  return Uint8Array.from(symbol.modules.data);
}

function versionOf(text: string, level: ErrorCorrectionLevel): number {
  try {
    return buildQrMatrix(text, level).version;
  } catch {
    return Infinity;
  }
}

/** The longest text of `unit` repeats that lands in `version` (binary search), if any does. */
function textFilling(version: number, level: ErrorCorrectionLevel, unit: string): string | null {
  let low = 0;
  let high = 3000;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (versionOf(unit.repeat(middle), level) <= version) low = middle;
    else high = middle - 1;
  }
  return low > 0 && versionOf(unit.repeat(low), level) === version ? unit.repeat(low) : null;
}

describe('buildQrMatrix', () => {
  it('builds a version-1 symbol for a short text, with the three finder patterns', () => {
    const matrix = buildQrMatrix('hello', 'M');
    expect(matrix.version).toBe(1);
    expect(matrix.size).toBe(21);
    expect(matrix.modules).toHaveLength(21 * 21);
    for (const [row, col] of [
      [0, 0],
      [0, 14],
      [14, 0],
    ]) {
      expect(matrix.isDark(row, col)).toBe(true);
      expect(matrix.isDark(row + 1, col + 1)).toBe(false);
      expect(matrix.isDark(row + 3, col + 3)).toBe(true);
    }
  });

  it('answers isDark from the modules and false outside the symbol', () => {
    const matrix = buildQrMatrix('https://example.com', 'Q');
    for (let row = 0; row < matrix.size; row++) {
      for (let col = 0; col < matrix.size; col++) {
        expect(matrix.isDark(row, col)).toBe(matrix.modules[row * matrix.size + col] === 1);
      }
    }
    expect(matrix.isDark(-1, 0)).toBe(false);
    expect(matrix.isDark(0, matrix.size)).toBe(false);
  });

  it('picks the same version as the qrcode package', () => {
    for (const text of ['x', 'https://example.com/a', '日本語'.repeat(30), 'A'.repeat(500), '9'.repeat(1000)]) {
      for (const level of ERROR_CORRECTION_LEVELS) {
        expect(buildQrMatrix(text, level).version).toBe(QRCode.create(text, { errorCorrectionLevel: level }).version);
      }
    }
  });

  it.each(ERROR_CORRECTION_LEVELS)('matches the qrcode package module for module in every version at level %s', (level) => {
    let checked = 0;
    for (let version = 1; version <= 40; version++) {
      // Byte mode (two- and one-byte characters), numeric and alphanumeric in turn.
      const unit = ['é', 'ab', '7', 'Q'][version % 4];
      const text = textFilling(version, level, unit) ?? textFilling(version, level, 'x');
      if (text === null) continue;
      checked++;
      const matrix = buildQrMatrix(text, level);
      const reference = referenceModules(text, level, version, maskOf(matrix));
      expect({ version, equal: Buffer.compare(Buffer.from(matrix.modules), Buffer.from(reference)) === 0 }).toEqual({ version, equal: true });
    }
    expect(checked).toBe(40);
  });

  it('holds the full version-40 capacity and throws QrCapacityError one byte beyond it', () => {
    expect(buildQrMatrix('x'.repeat(2953), 'L').version).toBe(40);
    expect(buildQrMatrix('x'.repeat(1273), 'H').version).toBe(40);
    expect(() => buildQrMatrix('x'.repeat(2954), 'L')).toThrow(QrCapacityError);
    expect(() => buildQrMatrix('x'.repeat(1274), 'H')).toThrow(QrCapacityError);
  });

  it('counts UTF-8 bytes, not characters, against the capacity', () => {
    // 😀 is four UTF-8 bytes: 1273 of them do not fit at H, 318 do.
    expect(buildQrMatrix('😀'.repeat(318), 'H').version).toBe(40);
    const error = (() => {
      try {
        buildQrMatrix('😀'.repeat(319), 'H');
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(QrCapacityError);
    expect(error).toMatchObject({ name: 'QrCapacityError', level: 'H' });
  });
});
