import type { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { ExportQueryPipe } from './export-query.pipe';

const pipe = new ExportQueryPipe();

function fieldsOf(query: Record<string, string>): string[] {
  try {
    pipe.transform(query);
  } catch (error) {
    return (error as ValidationFailedException).fieldErrors.map((problem) => problem.field);
  }
  return [];
}

describe('ExportQueryPipe', () => {
  it.each<[Record<string, string>, object]>([
    [{}, { format: 'png', size: undefined, widthMm: undefined, dpi: 300, bleedMm: undefined }],
    [
      { format: 'pdf', width_mm: '40.5', dpi: '600', bleed_mm: '3' },
      { format: 'pdf', widthMm: 40.5, dpi: 600, bleedMm: 3 },
    ],
    [
      { format: 'svg', size: '4000' },
      { format: 'svg', size: 4000, dpi: 300 },
    ],
    [
      { size: '100', dpi: '72' },
      { size: 100, dpi: 72 },
    ],
    [
      { width_mm: '1000', dpi: '1200' },
      { widthMm: 1000, dpi: 1200 },
    ],
  ])('accepts %j', (query, expected) => {
    expect(pipe.transform(query)).toMatchObject(expected);
  });

  it.each<[Record<string, string>, string[]]>([
    [{ format: 'gif' }, ['format']],
    [{ format: 'PNG' }, ['format']],
    [{ size: '99' }, ['size']],
    [{ size: '4001' }, ['size']],
    [{ size: '1e3' }, ['size']],
    [{ size: '-5' }, ['size']],
    [{ width_mm: '9.99' }, ['width_mm']],
    [{ width_mm: '10.001' }, ['width_mm']],
    [{ width_mm: '1000.01' }, ['width_mm']],
    [{ dpi: '71' }, ['dpi']],
    [{ dpi: '300.5' }, ['dpi']],
    [{ size: '300', width_mm: '40' }, ['width_mm']],
    [{ bleed_mm: '1' }, ['bleed_mm']],
    [{ format: 'pdf', bleed_mm: '20.5' }, ['bleed_mm']],
    [{ shape: 'round', size: '0' }, ['shape', 'size']],
  ])('refuses %j naming %j', (query, fields) => {
    expect(fieldsOf(query)).toEqual(fields);
  });
});
