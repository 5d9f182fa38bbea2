/**
 * From text to the data codewords of one segment: numeric or alphanumeric mode when the whole text
 * allows it (as qr-code-styling picks its mode), otherwise byte mode over the UTF-8 bytes, so that
 * any text decodes back exactly. No ECI header: scanners read byte mode as UTF-8 by default.
 */
import type { ErrorCorrectionLevel } from '../style/qr-style';
import { blockStructure, MAX_VERSION, MIN_VERSION } from './symbol-tables';

type SegmentMode = 'numeric' | 'alphanumeric' | 'byte';

const MODE_INDICATOR: Record<SegmentMode, number> = { numeric: 0b0001, alphanumeric: 0b0010, byte: 0b0100 };

/** Character-count field widths for versions 1–9, 10–26 and 27–40. */
const COUNT_BITS: Record<SegmentMode, readonly [number, number, number]> = {
  numeric: [10, 12, 14],
  alphanumeric: [9, 11, 13],
  byte: [8, 16, 16],
};

const ALPHANUMERIC_CHARSET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
const NUMERIC_TEXT = /^[0-9]*$/;
const ALPHANUMERIC_TEXT = /^[0-9A-Z $%*+\-./:]*$/;

const PAD_CODEWORDS = [0xec, 0x11] as const;

interface Segment {
  mode: SegmentMode;
  text: string;
  bytes: Uint8Array | null;
  characterCount: number;
  payloadBits: number;
}

export interface EncodedData {
  version: number;
  codewords: Uint8Array;
}

const utf8 = new TextEncoder();

function toSegment(text: string): Segment {
  if (NUMERIC_TEXT.test(text)) {
    const length = text.length;
    const payloadBits = Math.floor(length / 3) * 10 + [0, 4, 7][length % 3];
    return { mode: 'numeric', text, bytes: null, characterCount: length, payloadBits };
  }
  if (ALPHANUMERIC_TEXT.test(text)) {
    const length = text.length;
    return { mode: 'alphanumeric', text, bytes: null, characterCount: length, payloadBits: Math.floor(length / 2) * 11 + (length % 2) * 6 };
  }
  const bytes = utf8.encode(text);
  return { mode: 'byte', text, bytes, characterCount: bytes.length, payloadBits: bytes.length * 8 };
}

function countBits(mode: SegmentMode, version: number): number {
  return COUNT_BITS[mode][version <= 9 ? 0 : version <= 26 ? 1 : 2];
}

/** Bits the segment needs at this version, or Infinity when its count does not fit the count field. */
function segmentBits(segment: Segment, version: number): number {
  const bits = countBits(segment.mode, version);
  if (segment.characterCount >= 2 ** bits) return Infinity;
  return 4 + bits + segment.payloadBits;
}

/** Writes bits most significant first into a zero-filled byte array. */
class BitWriter {
  private bitLength = 0;

  constructor(readonly bytes: Uint8Array) {}

  get length(): number {
    return this.bitLength;
  }

  write(value: number, bitCount: number): void {
    for (let bit = bitCount - 1; bit >= 0; bit--) {
      if ((value >>> bit) & 1) this.bytes[this.bitLength >>> 3] |= 0x80 >>> (this.bitLength & 7);
      this.bitLength++;
    }
  }
}

function writePayload(segment: Segment, writer: BitWriter): void {
  const { text } = segment;
  if (segment.mode === 'numeric') {
    for (let start = 0; start < text.length; start += 3) {
      const group = text.slice(start, start + 3);
      writer.write(Number(group), group.length * 3 + 1);
    }
  } else if (segment.mode === 'alphanumeric') {
    let index = 0;
    for (; index + 1 < text.length; index += 2) {
      writer.write(ALPHANUMERIC_CHARSET.indexOf(text[index]) * 45 + ALPHANUMERIC_CHARSET.indexOf(text[index + 1]), 11);
    }
    if (index < text.length) writer.write(ALPHANUMERIC_CHARSET.indexOf(text[index]), 6);
  } else {
    for (const byte of segment.bytes!) writer.write(byte, 8);
  }
}

/**
 * Picks the smallest version (from `minVersion`) that holds the text at this level and returns its
 * data codewords (terminated and padded), or null when even version 40 is too small.
 */
export function encodeDataCodewords(text: string, level: ErrorCorrectionLevel, minVersion = MIN_VERSION): EncodedData | null {
  const segment = toSegment(text);
  for (let version = Math.max(MIN_VERSION, minVersion); version <= MAX_VERSION; version++) {
    const capacityBits = blockStructure(version, level).dataCodewords * 8;
    const usedBits = segmentBits(segment, version);
    if (usedBits > capacityBits) continue;

    const codewords = new Uint8Array(capacityBits / 8);
    const writer = new BitWriter(codewords);
    writer.write(MODE_INDICATOR[segment.mode], 4);
    writer.write(segment.characterCount, countBits(segment.mode, version));
    writePayload(segment, writer);
    // Terminator of up to four zero bits, then zero bits to the byte boundary: already zero.
    const usedBytes = Math.ceil(Math.min(writer.length + 4, capacityBits) / 8);
    for (let index = usedBytes; index < codewords.length; index++) {
      codewords[index] = PAD_CODEWORDS[(index - usedBytes) & 1];
    }
    return { version, codewords };
  }
  return null;
}
