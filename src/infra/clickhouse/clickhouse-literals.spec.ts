import { integerLiteral, uuidList, uuidLiteral, uuidSet } from './clickhouse-literals';
import { clickHouseTarget } from './clickhouse-connection';

describe('ClickHouse literals', () => {
  it('inlines UUIDs (lower case) and whole numbers', () => {
    expect(uuidLiteral('3F2B8C4E-1D5A-4E7B-9C0F-6A8D2E4B1C37')).toBe("toUUID('3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37')");
    expect(uuidList(['3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37', '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37'])).toBe(
      "toUUID('3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37')",
    );
    expect(integerLiteral(1_700_000_000_123)).toBe('1700000000123');
  });

  it.each(["3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37') OR 1=1 --", '', 'not-a-uuid', '3f2b8c4e1d5a4e7b9c0f6a8d2e4b1c37'])(
    'refuses %j as a UUID',
    (text) => {
      expect(() => uuidLiteral(text)).toThrow(/not a UUID/);
    },
  );

  it('puts a set of UUIDs in one string literal, refusing anything else in it', () => {
    expect(uuidSet(['3F2B8C4E-1D5A-4E7B-9C0F-6A8D2E4B1C37', '00000000-0000-0000-0000-000000000001', '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37'])).toBe(
      "(SELECT toUUID(arrayJoin(splitByChar(',', '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37,00000000-0000-0000-0000-000000000001'))))",
    );
    expect(() => uuidSet(['00000000-0000-0000-0000-000000000001', "x'),('y"])).toThrow(/not a UUID/);
  });

  it('refuses an empty list and numbers that are not whole', () => {
    expect(() => uuidList([])).toThrow(/empty/);
    expect(() => uuidSet([])).toThrow(/empty/);
    for (const n of [1.5, Number.NaN, Infinity, 2 ** 60]) expect(() => integerLiteral(n)).toThrow(/not a whole number/);
  });
});

describe('clickHouseTarget', () => {
  it('reads the origin, the credentials and the database from CLICKHOUSE_URL', () => {
    expect(clickHouseTarget('http://qr:p%40ss@clickhouse:8123/qr')).toEqual({
      origin: 'http://clickhouse:8123',
      username: 'qr',
      password: 'p@ss',
      database: 'qr',
    });
    expect(clickHouseTarget('https://ch.example/')).toEqual({ origin: 'https://ch.example', username: 'default', password: '', database: 'default' });
  });
});
