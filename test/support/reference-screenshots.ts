import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePng } from './png-reader';

/**
 * Screenshots compared with a committed reference set, the layout of test/visual/landing-fold/:
 * the references are test/visual/<set>/<name>.png (committed), each run's shots go to
 * test/visual/out/<set>/<name>.png (git-ignored) to look at. UPDATE_VISUAL_REFERENCES=1 writes the
 * run's shots as the new references (then look at them before committing).
 */
const VISUAL = join(__dirname, '..', 'visual');

export interface ReferenceComparison {
  /** Pixels whose colour differs by more than the channel tolerance, as a share of all pixels. */
  differing: number;
  reference: string;
  written: boolean;
}

/** How far one channel may drift (anti-aliasing of the same drawing) before a pixel counts as different. */
const CHANNEL_TOLERANCE = 48;

export function compareWithReference(set: string, name: string, png: Buffer): ReferenceComparison {
  const reference = join(VISUAL, set, `${name}.png`);
  mkdirSync(join(VISUAL, 'out', set), { recursive: true });
  writeFileSync(join(VISUAL, 'out', set, `${name}.png`), png);
  if (process.env.UPDATE_VISUAL_REFERENCES === '1' || !existsSync(reference)) {
    if (process.env.UPDATE_VISUAL_REFERENCES !== '1') throw new Error(`No reference ${reference}: run with UPDATE_VISUAL_REFERENCES=1 to write it`);
    mkdirSync(join(VISUAL, set), { recursive: true });
    writeFileSync(reference, png);
    return { differing: 0, reference, written: true };
  }
  return { differing: pixelDifference(readFileSync(reference), png), reference, written: false };
}

/** The share of pixels that differ between two PNGs (1 when their sizes differ). */
export function pixelDifference(a: Buffer, b: Buffer): number {
  const first = decodePng(a);
  const second = decodePng(b);
  if (first.width !== second.width || first.height !== second.height) return 1;
  let differing = 0;
  for (let i = 0; i < first.pixels.length; i += 4) {
    for (let channel = 0; channel < 4; channel++) {
      if (Math.abs(first.pixels[i + channel] - second.pixels[i + channel]) > CHANNEL_TOLERANCE) {
        differing += 1;
        break;
      }
    }
  }
  return differing / (first.width * first.height);
}
