import { detectDelimiter, MAX_IMPORT_ROWS, readCsvFile } from './csv-file';

describe('readCsvFile', () => {
  it.each([
    ['commas', 'type,name\r\nurl,A\r\n', ','],
    ['semicolons', 'type;name\nurl;A\n', ';'],
    ['a comma inside a quoted header cell of a ; file', '"type";"na,me";x\n', ';'],
    ['a tie', 'type\nurl\n', ','],
  ])('detects the delimiter: %s', (_, text, expected) => {
    expect(detectDelimiter(text)).toBe(expected);
  });

  it('reads quotes, doubled quotes, line breaks in cells and a byte order mark; rows are numbered with the header as 1', () => {
    const read = readCsvFile('\uFEFFtype,name\r\ntext,"a ""b""\nc"\r\nurl,\r\n');
    expect(read).toEqual({
      ok: true,
      file: {
        delimiter: ',',
        header: ['type', 'name'],
        rows: [
          {
            row: 2,
            cells: new Map([
              ['type', 'text'],
              ['name', 'a "b"\nc'],
            ]),
          },
          {
            row: 3,
            cells: new Map([
              ['type', 'url'],
              ['name', ''],
            ]),
          },
        ],
      },
    });
  });

  it('leaves a row with another number of cells to fail on its own', () => {
    const read = readCsvFile('type,name\nurl\nurl,A\n');
    expect(read.ok && read.file.rows.map((row) => row.problem?.field ?? 'ok')).toEqual(['row', 'ok']);
  });

  it.each([
    ['no header', '', 'body'],
    ['no row', 'type,name\n', 'body'],
    ['an unknown column', 'type,colour\nurl,red\n', 'columns.colour'],
    ['a column twice', 'type,name,name\nurl,a,b\n', 'columns.name'],
    ['no type column', 'name\nx\n', 'columns.type'],
    ['an unclosed quote', 'type\n"url\n', 'body'],
    ['too many rows', `type\n${'url\n'.repeat(MAX_IMPORT_ROWS + 1)}`, 'body'],
  ])('refuses %s, naming %s', (_, text, field) => {
    const read = readCsvFile(text);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.errors[0].field).toBe(field);
  });
});
