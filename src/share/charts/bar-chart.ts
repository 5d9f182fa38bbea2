import { element, emptyElement, roundTo } from '../../rendering/svg-markup';
import { CHART_COLOURS, chartSvg, svgText } from './chart-frame';
import { shortCount } from './chart-scale';

export interface BarChartInput {
  id: string;
  title: string;
  /** Rows in the order drawn (largest first, as the analytics list them). */
  rows: ReadonlyArray<{ label: string; value: number }>;
  width?: number;
}

const ROW_HEIGHT = 26;
const LABEL_WIDTH = 130;
const VALUE_WIDTH = 60;
const PADDING = 8;
const MAX_LABEL_CHARACTERS = 20;

/** A horizontal bar per row, its label on the left and its count on the right; "No scans" when empty. */
export function barChartSvg(input: BarChartInput): string {
  const width = input.width ?? 420;
  const rows = input.rows;
  const height = PADDING * 2 + Math.max(1, rows.length) * ROW_HEIGHT;
  const largest = Math.max(1, ...rows.map((row) => row.value));
  const barSpace = width - LABEL_WIDTH - VALUE_WIDTH - PADDING * 2;
  const description =
    rows.length === 0 ? `${input.title}: no scans in this period.` : `${input.title}: ${rows.map((row) => `${row.label} ${row.value}`).join(', ')}.`;
  const body =
    rows.length === 0
      ? element(
          'text',
          [
            ['x', width / 2],
            ['y', height / 2 + 4],
            ['text-anchor', 'middle'],
            ['fill', CHART_COLOURS.text],
          ],
          'No scans',
        )
      : rows.map((row, index) => barRow(row, index, barSpace, largest)).join('');
  return chartSvg({ id: input.id, width, height, title: input.title, description }, body);
}

function barRow(row: { label: string; value: number }, index: number, barSpace: number, largest: number): string {
  const y = PADDING + index * ROW_HEIGHT;
  const barWidth = roundTo((row.value / largest) * barSpace, 1);
  const label = row.label.length > MAX_LABEL_CHARACTERS ? `${row.label.slice(0, MAX_LABEL_CHARACTERS - 1)}…` : row.label;
  return (
    element(
      'text',
      [
        ['x', PADDING],
        ['y', y + 17],
        ['fill', CHART_COLOURS.text],
      ],
      svgText(label),
    ) +
    emptyElement('rect', [
      ['x', PADDING + LABEL_WIDTH],
      ['y', y + 5],
      ['width', Math.max(barWidth, row.value > 0 ? 1 : 0)],
      ['height', ROW_HEIGHT - 10],
      ['rx', 2],
      ['fill', CHART_COLOURS.primary],
    ]) +
    element(
      'text',
      [
        ['x', PADDING + LABEL_WIDTH + barSpace + VALUE_WIDTH],
        ['y', y + 17],
        ['text-anchor', 'end'],
        ['fill', CHART_COLOURS.text],
      ],
      svgText(shortCount(row.value)),
    )
  );
}
