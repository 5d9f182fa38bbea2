/**
 * The fonts a frame's call to action is drawn in: OFL fonts bundled as npm packages (@fontsource),
 * read with opentype.js from their WOFF files (opentype.js 2 inflates WOFF itself; WOFF2 would need
 * a Brotli decoder, so the WOFF files are used). The text becomes outlines, so SVG, PNG and PDF
 * look alike with no font installed anywhere. Fontsource splits each font into files by script
 * (latin, latin-ext, greek, cyrillic, …); a character is looked up in each file in turn.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, type Font, type Glyph } from 'opentype.js';

/** Font names a style may choose (`frameOptions.font`), each an OFL font with Latin, Greek and Cyrillic. */
export const FRAME_FONT_NAMES = ['noto-sans', 'roboto'] as const;
export type FrameFontName = (typeof FRAME_FONT_NAMES)[number];
export const DEFAULT_FRAME_FONT: FrameFontName = 'noto-sans';

/** Bold upright: a call to action is read at a glance. */
const WEIGHT_FILE_SUFFIX = '-700-normal.woff';

/** A character's glyph and the file (script subset) it came from: kerning applies within one file only. */
export interface FoundGlyph {
  font: Font;
  glyph: Glyph;
}

export interface FrameFont {
  name: FrameFontName;
  /** font units per em, the same in every subset of one font */
  unitsPerEm: number;
  /** height of a capital letter, em */
  capHeight: number;
  /** the glyph of one character (a code point), or undefined when no subset has it */
  glyphOf(character: string): FoundGlyph | undefined;
}

const loaded = new Map<FrameFontName, FrameFont>();

function subsetFiles(name: FrameFontName): string[] {
  // The package's own files/ folder, wherever npm put it.
  const folder = join(dirname(require.resolve(`@fontsource/${name}/package.json`)), 'files');
  return readdirSync(folder)
    .filter((file) => file.endsWith(WEIGHT_FILE_SUFFIX))
    .sort()
    .map((file) => join(folder, file));
}

function parseFont(path: string): Font {
  const bytes = readFileSync(path);
  return parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** A bundled font, parsed on first use and kept for the life of the process (a few hundred KB). */
export function frameFont(name: FrameFontName): FrameFont {
  const known = loaded.get(name);
  if (known) return known;
  const subsets = subsetFiles(name).map(parseFont);
  if (subsets.length === 0) throw new Error(`font ${name}: no ${WEIGHT_FILE_SUFFIX} files in its package`);
  const [first] = subsets;
  const os2 = first.tables.os2 as { sCapHeight?: number } | undefined;
  const capHeightUnits = os2?.sCapHeight || first.unitsPerEm * 0.71;
  const glyphs = new Map<string, FoundGlyph | undefined>();
  const font: FrameFont = {
    name,
    unitsPerEm: first.unitsPerEm,
    capHeight: capHeightUnits / first.unitsPerEm,
    glyphOf(character) {
      if (glyphs.has(character)) return glyphs.get(character);
      let found: FoundGlyph | undefined;
      for (const subset of subsets) {
        const index = subset.charToGlyphIndex(character);
        if (index > 0) {
          found = { font: subset, glyph: subset.glyphs.get(index) };
          break;
        }
      }
      glyphs.set(character, found);
      return found;
    },
  };
  loaded.set(name, font);
  return font;
}

/** Control and format characters have no place in a one-line call to action, whatever the font says. */
const NOT_DRAWABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The characters of `text` the font cannot draw, each once, in order of appearance. */
export function missingCharacters(name: FrameFontName, text: string): string[] {
  const font = frameFont(name);
  const missing = new Set<string>();
  for (const character of text) {
    if (NOT_DRAWABLE.test(character) || !font.glyphOf(character)) missing.add(character);
  }
  return [...missing];
}
