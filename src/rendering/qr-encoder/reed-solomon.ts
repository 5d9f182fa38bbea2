/**
 * Reed–Solomon error correction over GF(256) with the QR field polynomial x^8+x^4+x^3+x^2+1, and
 * the block split + interleaving that turns data codewords into the final codeword sequence.
 */
import type { BlockStructure } from './symbol-tables';

const FIELD_POLYNOMIAL = 0x11d;

/** exp is doubled so that exp[log a + log b] needs no modulo. */
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let value = 1;
  for (let power = 0; power < 255; power++) {
    EXP[power] = value;
    LOG[value] = power;
    value <<= 1;
    if (value & 0x100) value ^= FIELD_POLYNOMIAL;
  }
  for (let power = 255; power < 512; power++) EXP[power] = EXP[power - 255];
}

function multiply(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]];
}

const generatorCache = new Map<number, Uint8Array>();

/**
 * Coefficients of (x - α^0)(x - α^1)…(x - α^(degree-1)) from the highest power down, without the
 * leading 1.
 */
function generatorPolynomial(degree: number): Uint8Array {
  const cached = generatorCache.get(degree);
  if (cached) return cached;
  const coefficients = new Uint8Array(degree);
  coefficients[degree - 1] = 1;
  let root = 1;
  for (let step = 0; step < degree; step++) {
    for (let index = 0; index < degree; index++) {
      coefficients[index] = multiply(coefficients[index], root) ^ (index + 1 < degree ? coefficients[index + 1] : 0);
    }
    root = multiply(root, 2);
  }
  generatorCache.set(degree, coefficients);
  return coefficients;
}

/** Remainder of data·x^degree divided by the generator: the error-correction codewords. */
function errorCorrectionCodewords(data: Uint8Array, degree: number): Uint8Array {
  const generator = generatorPolynomial(degree);
  const remainder = new Uint8Array(degree);
  for (let index = 0; index < data.length; index++) {
    const factor = data[index] ^ remainder[0];
    remainder.copyWithin(0, 1);
    remainder[degree - 1] = 0;
    if (factor === 0) continue;
    const factorLog = LOG[factor];
    for (let term = 0; term < degree; term++) {
      const coefficient = generator[term];
      if (coefficient !== 0) remainder[term] ^= EXP[LOG[coefficient] + factorLog];
    }
  }
  return remainder;
}

/**
 * Splits the data codewords into blocks (the short blocks first, long blocks one codeword longer),
 * adds each block's error correction and interleaves: data column by column, then error correction.
 */
export function interleaveWithErrorCorrection(data: Uint8Array, structure: BlockStructure): Uint8Array {
  const { blockCount, errorCorrectionCodewordsPerBlock: eccLength, totalCodewords } = structure;
  const shortBlockCount = blockCount - (totalCodewords % blockCount);
  const shortDataLength = Math.floor(totalCodewords / blockCount) - eccLength;

  const dataBlocks: Uint8Array[] = [];
  const eccBlocks: Uint8Array[] = [];
  let offset = 0;
  for (let block = 0; block < blockCount; block++) {
    const length = shortDataLength + (block < shortBlockCount ? 0 : 1);
    const blockData = data.subarray(offset, offset + length);
    offset += length;
    dataBlocks.push(blockData);
    eccBlocks.push(errorCorrectionCodewords(blockData, eccLength));
  }

  const result = new Uint8Array(totalCodewords);
  let position = 0;
  for (let column = 0; column <= shortDataLength; column++) {
    for (let block = 0; block < blockCount; block++) {
      if (column < dataBlocks[block].length) result[position++] = dataBlocks[block][column];
    }
  }
  for (let column = 0; column < eccLength; column++) {
    for (let block = 0; block < blockCount; block++) result[position++] = eccBlocks[block][column];
  }
  return result;
}
