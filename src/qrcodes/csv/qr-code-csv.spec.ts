import type { FolderId, QrCodeId } from '../../common/ids/resource-ids';
import { NO_STORED_LINK_FIELDS, type QrCodeRecord } from '../qr-code.record';
import { csvLine, csvRowOf, itemFromCsvRow, QR_CODE_CSV_COLUMNS, unknownColumns } from './qr-code-csv';

const cells = (entries: Record<string, string>) => new Map(Object.entries(entries));

const code = (overrides: Partial<QrCodeRecord>): QrCodeRecord => ({
  id: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' as QrCodeId,
  name: 'A',
  type: 'url',
  content: { url: 'https://example.com' },
  contentString: 'https://example.com',
  tags: [],
  style: {},
  folderId: null,
  isDynamic: false,
  shortCode: null,
  status: 'active',
  expiresAt: null,
  scans: 0n,
  renderVersion: 1,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  createdKeyPrefix: null,
  domainId: null,
  domainHostname: null,
  ...NO_STORED_LINK_FIELDS,
  ...overrides,
});

describe('the CSV form of a code', () => {
  it('has the code columns, then one column per content field of every type (nested fields dotted)', () => {
    expect(QR_CODE_CSV_COLUMNS.slice(0, 7)).toEqual(['type', 'name', 'is_dynamic', 'folder_id', 'folder_name', 'short_code', 'style']);
    expect(QR_CODE_CSV_COLUMNS).toEqual(expect.arrayContaining(['content.url', 'content.latitude', 'content.hidden', 'content.address.city']));
    expect(new Set(QR_CODE_CSV_COLUMNS).size).toBe(QR_CODE_CSV_COLUMNS.length);
    expect(unknownColumns(['type', 'content.colour'])).toEqual(['content.colour']);
  });

  it.each([
    ['a url code', { type: 'url', name: 'A', 'content.url': 'https://x.test' }, { type: 'url', name: 'A', content: { url: 'https://x.test' } }],
    [
      'numbers and booleans by the field’s type',
      { type: 'geo', 'content.latitude': '1.5', 'content.longitude': '-2' },
      { type: 'geo', content: { latitude: 1.5, longitude: -2 } },
    ],
    [
      'a boolean content field',
      { type: 'wifi', 'content.ssid': 'S', 'content.hidden': 'TRUE' },
      { type: 'wifi', content: { ssid: 'S', hidden: true } },
    ],
    ['a nested field', { type: 'vcard', 'content.address.city': 'Oslo' }, { type: 'vcard', content: { address: { city: 'Oslo' } } }],
    [
      'empty cells as fields not sent',
      { type: 'url', name: '', is_dynamic: '', 'content.url': 'https://x.test' },
      { type: 'url', content: { url: 'https://x.test' } },
    ],
    [
      'a style as JSON and is_dynamic',
      { type: 'url', is_dynamic: 'true', style: '{"shape":"circle"}' },
      { type: 'url', is_dynamic: true, style: { shape: 'circle' }, content: {} },
    ],
    [
      'the smart-link fields and the domain',
      {
        type: 'url',
        is_dynamic: 'true',
        domain_id: 'd8f2b8c4-1d5a-4e7b-9c0f-6a8d2e4b1c37',
        expires_at: '2030-01-01T00:00:00.000Z',
        rules: '[{"conditions":{"country":["DE"]},"target":"https://x.test/de"}]',
        max_scans: '100',
        fallback_url: 'https://x.test/sold-out',
        utm: '{"source":"poster"}',
      },
      {
        type: 'url',
        is_dynamic: true,
        domain_id: 'd8f2b8c4-1d5a-4e7b-9c0f-6a8d2e4b1c37',
        expires_at: '2030-01-01T00:00:00.000Z',
        rules: [{ conditions: { country: ['DE'] }, target: 'https://x.test/de' }],
        max_scans: 100,
        fallback_url: 'https://x.test/sold-out',
        utm: { source: 'poster' },
        content: {},
      },
    ],
  ])('reads %s', (_, row, item) => {
    expect(itemFromCsvRow(cells(row))).toEqual({ item, errors: [] });
  });

  it.each([
    ['is_dynamic', { type: 'url', is_dynamic: 'yes' }],
    ['style', { type: 'url', style: '[1]' }],
    ['style', { type: 'url', style: '{"__proto__":{"x":1}}' }],
    ['content.latitude', { type: 'geo', 'content.latitude': 'north' }],
    ['folder_name', { type: 'url', folder_id: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37', folder_name: 'A' }],
    ['short_code', { type: 'url', short_code: 'a b' }],
    ['rules', { type: 'url', rules: '{"conditions":{}}' }],
    ['rules', { type: 'url', rules: '[{' }],
    ['max_scans', { type: 'url', max_scans: 'many' }],
    ['utm', { type: 'url', utm: '"poster"' }],
  ])('names %s when its cell cannot be read', (field, row) => {
    expect(itemFromCsvRow(cells(row)).errors.map((error) => error.field)).toEqual([field]);
  });

  it('writes a code as a row the import reads back to the same create item', () => {
    const record = code({
      type: 'wifi',
      name: 'Guest, "cafe"',
      content: { ssid: 'S', hidden: true, encryption: 'WPA' },
      style: { shape: 'circle' },
      folderId: 'f' as FolderId,
      isDynamic: true,
      shortCode: 'aB3dE5gH',
    });
    const row = csvRowOf(record, 'Front; shop');
    expect(row.slice(0, 7)).toEqual(['wifi', 'Guest, "cafe"', 'true', '', 'Front; shop', 'aB3dE5gH', '{"shape":"circle"}']);
    const read = itemFromCsvRow(new Map(QR_CODE_CSV_COLUMNS.map((name, index) => [name, row[index]])));
    expect(read).toEqual({
      item: {
        type: 'wifi',
        name: 'Guest, "cafe"',
        is_dynamic: true,
        style: { shape: 'circle' },
        content: { ssid: 'S', hidden: true, encryption: 'WPA' },
      },
      folderName: 'Front; shop',
      errors: [],
    });
  });

  it('writes a smart link’s settings and domain as cells the import reads back (never a password hash)', () => {
    const record = code({
      isDynamic: true,
      shortCode: 'spring',
      domainId: 'd8f2b8c4-1d5a-4e7b-9c0f-6a8d2e4b1c37' as QrCodeRecord['domainId'],
      expiresAt: new Date('2030-01-01T00:00:00Z'),
      rules: [
        {
          name: 'Germans',
          conditions: { language: ['de'] },
          target: {
            split: [
              { url: 'https://x.test/a', weight: 1 },
              { url: 'https://x.test/b', weight: 1 },
            ],
          },
        },
      ],
      maxScans: 5,
      fallbackUrl: 'https://x.test/over',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$secret',
      utm: { source: 'qr', campaign: 'spring' },
    });
    const row = csvRowOf(record, null);
    expect(row.join(',')).not.toContain('argon2');
    const read = itemFromCsvRow(new Map(QR_CODE_CSV_COLUMNS.map((name, index) => [name, row[index]])));
    expect(read.errors).toEqual([]);
    expect(read.item).toMatchObject({
      domain_id: record.domainId,
      expires_at: '2030-01-01T00:00:00.000Z',
      rules: record.rules,
      max_scans: 5,
      fallback_url: 'https://x.test/over',
      utm: { source: 'qr', campaign: 'spring' },
    });
  });

  it.each([
    [['a', 'b'], 'a,b\r\n'],
    [['a,b', 'c;d'], '"a,b","c;d"\r\n'],
    [['say "hi"', 'two\nlines'], '"say ""hi""","two\nlines"\r\n'],
    [[' padded', ''], '" padded",\r\n'],
  ])('quotes cells that need it: %j', (row, line) => {
    expect(csvLine(row)).toBe(line);
  });

  it('reads and writes tags as names separated by "|" (the create rules check each)', () => {
    expect(itemFromCsvRow(cells({ type: 'url', tags: 'spring|Store 12', 'content.url': 'https://example.com' })).item.tags).toEqual([
      'spring',
      'Store 12',
    ]);
    expect(itemFromCsvRow(cells({ type: 'url', tags: '', 'content.url': 'https://example.com' })).item).not.toHaveProperty('tags');
    const row = csvRowOf(code({ tags: ['spring', 'Store 12'] }), null);
    expect(row[QR_CODE_CSV_COLUMNS.indexOf('tags')]).toBe('spring|Store 12');
    expect(csvRowOf(code({}), null)[QR_CODE_CSV_COLUMNS.indexOf('tags')]).toBe('');
  });
});
