/**
 * A line of text as one outline path (SVG path data in canvas pixels), laid out with the font's
 * advances and, between glyphs of one script file, its kerning. No shaping beyond that: a call to
 * action in Latin, Greek or Cyrillic needs none.
 */
import type { PathCommand } from 'opentype.js';
import { roundTo } from '../svg-markup';
import type { FoundGlyph, FrameFont } from './frame-fonts';

/** Advance of the text at a size of 1 (em); characters the font lacks count as nothing (they are refused earlier). */
export function textAdvanceEm(font: FrameFont, text: string): number {
  return layoutGlyphs(font, text).reduce((sum, placed) => sum + placed.advance, 0);
}

interface PlacedGlyph {
  found: FoundGlyph;
  /** advance after this glyph including kerning with the next, em */
  advance: number;
}

function layoutGlyphs(font: FrameFont, text: string): PlacedGlyph[] {
  const found = [...text].map((character) => font.glyphOf(character)).filter((glyph): glyph is FoundGlyph => glyph !== undefined);
  return found.map((current, index) => {
    const next = found[index + 1];
    const kerning = next && next.font === current.font ? current.font.getKerningValue(current.glyph, next.glyph) : 0;
    return { found: current, advance: ((current.glyph.advanceWidth ?? 0) + kerning) / font.unitsPerEm };
  });
}

function formatCommand(command: PathCommand): string {
  const n = (value: number) => roundTo(value, 2);
  switch (command.type) {
    case 'M':
    case 'L':
      return `${command.type}${n(command.x)} ${n(command.y)}`;
    case 'Q':
      return `Q${n(command.x1)} ${n(command.y1)} ${n(command.x)} ${n(command.y)}`;
    case 'C':
      return `C${n(command.x1)} ${n(command.y1)} ${n(command.x2)} ${n(command.y2)} ${n(command.x)} ${n(command.y)}`;
    case 'Z':
      return 'Z';
  }
}

/**
 * The outline of `text` with its baseline starting at (x, baselineY), `fontSize` pixels per em.
 * Glyph outlines are filled with the nonzero rule (TrueType contours wind that way).
 */
export function textOutline(font: FrameFont, text: string, x: number, baselineY: number, fontSize: number): string {
  let penX = x;
  let data = '';
  for (const placed of layoutGlyphs(font, text)) {
    const path = placed.found.glyph.getPath(penX, baselineY, fontSize);
    for (const command of path.commands) data += formatCommand(command);
    penX += placed.advance * fontSize;
  }
  return data;
}
