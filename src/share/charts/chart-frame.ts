import { element, escapeAttribute } from '../../rendering/svg-markup';

/** Colours that read on light and dark pages alike, and on paper. */
export const CHART_COLOURS = { primary: '#2f5fd0', secondary: '#d9822b', grid: '#8a8f98', text: '#3c4047' } as const;
export const CHART_FONT = 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif';

export interface ChartFrame {
  /** Unique within the page: ids of the title and description derive from it. */
  id: string;
  width: number;
  height: number;
  title: string;
  /** A sentence saying what the chart shows, for screen readers (the page's table holds the numbers). */
  description: string;
}

/** Escapes text placed between SVG tags (the same rule as attribute values). */
export function svgText(text: string): string {
  return escapeAttribute(text);
}

/** The outer `<svg>`: an image with a title and a description, scaled to its container's width. */
export function chartSvg(frame: ChartFrame, body: string): string {
  const titleId = `${frame.id}-title`;
  const descriptionId = `${frame.id}-desc`;
  return element(
    'svg',
    [
      ['xmlns', 'http://www.w3.org/2000/svg'],
      ['viewBox', `0 0 ${frame.width} ${frame.height}`],
      ['width', frame.width],
      ['height', frame.height],
      ['role', 'img'],
      ['aria-labelledby', `${titleId} ${descriptionId}`],
      ['font-family', CHART_FONT],
      ['font-size', 12],
      ['style', 'max-width:100%;height:auto'],
    ],
    `<title id="${escapeAttribute(titleId)}">${svgText(frame.title)}</title>` +
      `<desc id="${escapeAttribute(descriptionId)}">${svgText(frame.description)}</desc>` +
      body,
  );
}
