/**
 * The eight data masks and the penalty score (ISO/IEC 18004 §7.8.3) used to pick the mask that
 * leaves the fewest scanner-unfriendly features: long runs, 2×2 blocks, finder look-alikes and
 * dark/light imbalance.
 */
import type { ErrorCorrectionLevel } from '../style/qr-style';
import { placeFormatBits, type SymbolGrid } from './symbol-layout';

const MASK_COUNT = 8;

const PENALTY_RUN = 3;
const PENALTY_BLOCK = 3;
const PENALTY_FINDER_LIKE = 40;
const PENALTY_BALANCE = 10;

/** dark-light-dark-dark-dark-light-dark followed or preceded by four light modules, as 11-bit windows */
const FINDER_LIKE_FOLLOWED_BY_LIGHT = 0b10111010000;
const FINDER_LIKE_PRECEDED_BY_LIGHT = 0b00001011101;
const WINDOW_MASK = 0b11111111111;

function maskCondition(mask: number, row: number, col: number): boolean {
  switch (mask) {
    case 0:
      return (row + col) % 2 === 0;
    case 1:
      return row % 2 === 0;
    case 2:
      return col % 3 === 0;
    case 3:
      return (row + col) % 3 === 0;
    case 4:
      return (Math.floor(row / 2) + Math.floor(col / 3)) % 2 === 0;
    case 5:
      return ((row * col) % 2) + ((row * col) % 3) === 0;
    case 6:
      return (((row * col) % 2) + ((row * col) % 3)) % 2 === 0;
    default:
      return (((row + col) % 2) + ((row * col) % 3)) % 2 === 0;
  }
}

/** Grid byte length rounded up to whole 32-bit words, so trial masks can be applied a word at a time. */
function paddedLength(size: number): number {
  return (size * size + 3) & ~3;
}

/** 1 where a mask inverts a module (its condition holds and the module carries data), padded to words. */
interface MaskPattern {
  bytes: Uint8Array;
  words: Uint32Array;
}

/**
 * Patterns per symbol size, computed once per version: trying eight masks per code is the hot loop
 * of matrix building.
 */
const maskPatternCache = new Map<number, MaskPattern[]>();

function maskPatterns(grid: SymbolGrid): MaskPattern[] {
  const cached = maskPatternCache.get(grid.size);
  if (cached) return cached;
  const { size, isFunction } = grid;
  const patterns: MaskPattern[] = [];
  for (let mask = 0; mask < MASK_COUNT; mask++) {
    const bytes = new Uint8Array(paddedLength(size));
    for (let row = 0, index = 0; row < size; row++) {
      for (let col = 0; col < size; col++, index++) {
        bytes[index] = isFunction[index] === 0 && maskCondition(mask, row, col) ? 1 : 0;
      }
    }
    patterns.push({ bytes, words: new Uint32Array(bytes.buffer) });
  }
  maskPatternCache.set(size, patterns);
  return patterns;
}

function isUniformRunOfFive(window: number): boolean {
  const lastFive = window & 0b11111;
  return lastFive === 0 || lastFive === 0b11111;
}

/**
 * Score added when a module enters the 11-module window of a line (bits: newest lowest), so the
 * scan is branch-free: every window whose last five modules are equal adds 1 (a run of length
 * L >= 5 holds L-4 such windows), the first of them in a run adds the remaining 2 (a run scores
 * 3 + (L-5)), and a finder look-alike adds 40. Valid once ten modules of the line have been read.
 */
const WINDOW_SCORE = new Uint8Array(WINDOW_MASK + 1);
for (let window = 0; window <= WINDOW_MASK; window++) {
  let score = 0;
  if (isUniformRunOfFive(window)) score += isUniformRunOfFive(window >>> 1) ? 1 : PENALTY_RUN;
  if (window === FINDER_LIKE_FOLLOWED_BY_LIGHT || window === FINDER_LIKE_PRECEDED_BY_LIGHT) score += PENALTY_FINDER_LIKE;
  WINDOW_SCORE[window] = score;
}

/** 2×2 block score indexed by how many of its four modules are dark. */
const BLOCK_SCORE = Uint8Array.of(PENALTY_BLOCK, 0, 0, 0, PENALTY_BLOCK);

/** Runs and finder look-alikes along one line: a row (step 1) or a column (step size). */
function linePenalty(modules: Uint8Array, start: number, step: number, length: number): number {
  let window = 0;
  let index = start;
  for (let offset = 0; offset < 4; offset++, index += step) window = (window << 1) | modules[index];
  // The first window of five has no predecessor in the line: a uniform one starts a run.
  window = (window << 1) | modules[index];
  index += step;
  let penalty = isUniformRunOfFive(window) ? PENALTY_RUN : 0;
  for (let offset = 5; offset < 10; offset++, index += step) {
    window = (window << 1) | modules[index];
    if (isUniformRunOfFive(window)) penalty += isUniformRunOfFive(window >>> 1) ? 1 : PENALTY_RUN;
  }
  for (let offset = 10; offset < length; offset++, index += step) {
    window = ((window << 1) | modules[index]) & WINDOW_MASK;
    penalty += WINDOW_SCORE[window];
  }
  return penalty;
}

function penaltyScore(modules: Uint8Array, size: number): number {
  let penalty = 0;
  for (let line = 0; line < size; line++) {
    penalty += linePenalty(modules, line * size, 1, size) + linePenalty(modules, line, size, size);
  }

  let dark = 0;
  for (let row = 0; row < size - 1; row++) {
    const end = row * size + size - 1;
    let leftPair = modules[row * size] + modules[row * size + size];
    for (let index = row * size; index < end; index++) {
      const rightPair = modules[index + 1] + modules[index + size + 1];
      penalty += BLOCK_SCORE[leftPair + rightPair];
      dark += modules[index];
      leftPair = rightPair;
    }
    dark += modules[end];
  }
  for (let index = (size - 1) * size; index < size * size; index++) dark += modules[index];

  const total = size * size;
  const deviationSteps = Math.floor(Math.abs(dark * 20 - total * 10) / total);
  return penalty + deviationSteps * PENALTY_BALANCE;
}

/**
 * Tries every mask on a copy of the unmasked grid and applies the one with the lowest penalty
 * (the first on ties), with its format bits, to the grid itself. Returns the chosen mask.
 */
export function applyBestMask(grid: SymbolGrid, level: ErrorCorrectionLevel): number {
  const patterns = maskPatterns(grid);
  const trial: SymbolGrid = { size: grid.size, modules: new Uint8Array(paddedLength(grid.size)), isFunction: grid.isFunction };
  const trialWords = new Uint32Array(trial.modules.buffer);
  let bestMask = 0;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < MASK_COUNT; mask++) {
    trial.modules.set(grid.modules);
    const inverted = patterns[mask].words;
    for (let index = 0; index < trialWords.length; index++) trialWords[index] ^= inverted[index];
    placeFormatBits(trial, level, mask);
    const penalty = penaltyScore(trial.modules, grid.size);
    if (penalty < bestPenalty) {
      bestPenalty = penalty;
      bestMask = mask;
    }
  }
  const inverted = patterns[bestMask].bytes;
  for (let index = 0; index < grid.modules.length; index++) grid.modules[index] ^= inverted[index];
  placeFormatBits(grid, level, bestMask);
  return bestMask;
}
