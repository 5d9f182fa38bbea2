import { ruleNamesOf } from '../rule-names';
import { type ExportedScanRow, SCAN_CSV_HEADER, scanCsvLine, spreadsheetSafe } from './scan-csv';

const ROW: ExportedScanRow = {
  time: '2026-11-01T08:15:02.117Z',
  device: 'mobile',
  os: 'iOS',
  browser: 'Mobile Safari',
  referrer: null,
  country: null,
  city: null,
  rule_index: null,
  arm_index: null,
  is_bot: false,
};

describe('the scan CSV', () => {
  it('has the documented columns, and no visitor hash or user agent', () => {
    expect(SCAN_CSV_HEADER).toBe('time,device,os,browser,referrer,country,city,rule,arm,bot,rule_name,arm_name\r\n');
  });

  it.each([
    [ROW, '2026-11-01T08:15:02.117Z,mobile,iOS,Mobile Safari,,,,,,false,,\r\n'],
    [
      { ...ROW, referrer: 'https://a.example/?q=1,2', country: 'DE', city: 'Frankfurt am Main', rule_index: 0, arm_index: 2, is_bot: true },
      '2026-11-01T08:15:02.117Z,mobile,iOS,Mobile Safari,"https://a.example/?q=1,2",DE,Frankfurt am Main,0,2,true,,\r\n',
    ],
    [{ ...ROW, referrer: '=1+2' }, "2026-11-01T08:15:02.117Z,mobile,iOS,Mobile Safari,'=1+2,,,,,false,,\r\n"],
    [{ ...ROW, browser: '@SUM(A1)', city: '-2+3' }, "2026-11-01T08:15:02.117Z,mobile,iOS,'@SUM(A1),,,'-2+3,,,false,,\r\n"],
    [{ ...ROW, referrer: 'say "hi"\r\n' }, '2026-11-01T08:15:02.117Z,mobile,iOS,Mobile Safari,"say ""hi""\r\n",,,,,false,,\r\n'],
  ])('writes %j', (row, line) => {
    expect(scanCsvLine(row)).toBe(line);
  });

  it('names the rule and the arm by the names their indexes carry now, formula-safe; empty without one', () => {
    const names = ruleNamesOf([
      {
        name: '=German',
        conditions: {},
        target: {
          split: [
            { url: 'https://a.example/', weight: 1 },
            { name: 'B side', url: 'https://b.example/', weight: 1 },
          ],
        },
      },
      { conditions: {}, target: 'https://c.example/' },
    ]);
    expect(scanCsvLine({ ...ROW, rule_index: 0, arm_index: 1 }, names)).toBe(
      "2026-11-01T08:15:02.117Z,mobile,iOS,Mobile Safari,,,,0,1,false,'=German,B side\r\n",
    );
    expect(scanCsvLine({ ...ROW, rule_index: 0, arm_index: 0 }, names)).toMatch(/,0,0,false,'=German,\r\n$/);
    expect(scanCsvLine({ ...ROW, rule_index: 1, arm_index: null }, names)).toMatch(/,1,,false,,\r\n$/);
    expect(scanCsvLine({ ...ROW, rule_index: 7, arm_index: 3 }, names)).toMatch(/,7,3,false,,\r\n$/);
  });

  it.each([
    ['=HYPERLINK("x")', `'=HYPERLINK("x")`],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@x', "'@x"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['a=b', 'a=b'],
    ['', ''],
  ])('spreadsheetSafe(%j) is %j', (cell, safe) => {
    expect(spreadsheetSafe(cell)).toBe(safe);
  });
});
