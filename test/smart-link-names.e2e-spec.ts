import { randomUUID } from 'node:crypto';
import { auth, createQr, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, getQr, rebuildScanRollups, updateQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const CSV_HEADER = 'time,device,os,browser,referrer,country,city,rule,arm,bot,rule_name,arm_name';

/** Names on smart-link rules and split arms (docs/smart-links.md#names): stored, validated, shown by analytics and the scan CSV. */
describe('names of smart-link rules and arms (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
  });
  afterAll(() => t?.close());

  const split = (names: Array<string | undefined>) => ({
    split: names.map((name, index) => ({ ...(name !== undefined && { name }), url: `https://example.com/${index}`, weight: 1 })),
  });

  it('by_rule and by_arm keep the index and add the name the rule or arm has now; the scan CSV adds rule_name and arm_name', async () => {
    const rules = [
      { name: 'German speakers', conditions: { language: ['de'] }, target: split(['Landing A', undefined]) },
      { conditions: {}, target: split(['=formula', 'Landing D']) },
    ];
    const code = await createQr(t, key, { is_dynamic: true, rules });
    expect((await getQr(t, key, code.id)).json().rules).toEqual(rules);
    const at = new Date(Date.now() - 3_600_000);
    const scans: Array<[number, number]> = [
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 1],
      [0, 1],
      [1, 1],
    ];
    await t.prisma.scanEvent.createMany({
      data: scans.map(([rule, arm], index) => ({
        eventId: randomUUID(),
        qrCodeId: code.id,
        scannedAt: new Date(at.getTime() + index),
        device: 'mobile',
        os: 'iOS',
        browser: 'Mobile Safari',
        visitorHash: `v${index}`.padEnd(32, '-'),
        ruleIndex: rule,
        armIndex: arm,
      })),
    });
    await rebuildScanRollups(t, [code.id]);

    const analytics = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans`, headers: auth(key) });
    expectStatus(analytics, 200);
    expect(analytics.json().by_rule).toEqual([
      { rule: 0, name: 'German speakers', scans: 5 },
      { rule: 1, name: null, scans: 1 },
    ]);
    expect(analytics.json().by_arm).toEqual([
      { rule: 0, arm: 0, name: 'Landing A', scans: 3 },
      { rule: 0, arm: 1, name: null, scans: 2 },
      { rule: 1, arm: 1, name: 'Landing D', scans: 1 },
    ]);

    const csv = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans.csv`, headers: auth(key) });
    expectStatus(csv, 200);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines.slice(1, 7).map((line) => line.split(',').slice(7).join(','))).toEqual([
      '0,0,false,German speakers,Landing A',
      '0,0,false,German speakers,Landing A',
      '0,0,false,German speakers,Landing A',
      '0,1,false,German speakers,',
      '0,1,false,German speakers,',
      '1,1,false,,Landing D',
    ]);

    // A rename shows at once, past scans included: the scans keep indexes, the names are the code's.
    const renamed = [
      { ...rules[0], name: 'Deutsch' },
      { conditions: {}, target: split(['=formula', '@sum']) },
    ];
    expectStatus(await updateQr(t, key, code.id, { rules: renamed }), 200);
    const after = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans`, headers: auth(key) });
    expect(after.json().by_rule[0]).toEqual({ rule: 0, name: 'Deutsch', scans: 5 });
    expect(after.json().by_arm[2]).toEqual({ rule: 1, arm: 1, name: '@sum', scans: 1 });
    const csvAfter = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans.csv`, headers: auth(key) });
    expect(csvAfter.body.split('\r\n')[6].split(',').slice(7).join(',')).toBe("1,1,false,,'@sum");
  });

  it.each([
    ['a blank arm name', [{ conditions: {}, target: split(['A', '  ']) }], 'rules[0].target.split[1].name'],
    ['an arm name of 101 characters', [{ conditions: {}, target: split(['x'.repeat(101), 'B']) }], 'rules[0].target.split[0].name'],
    [
      'an arm name that is a number',
      [
        {
          conditions: {},
          target: {
            split: [
              { name: 7, url: 'https://example.com/a', weight: 1 },
              { url: 'https://example.com/b', weight: 1 },
            ],
          },
        },
      ],
      'rules[0].target.split[0].name',
    ],
    ['an empty rule name', [{ name: '', conditions: {}, target: 'https://example.com/x' }], 'rules[0].name'],
    [
      'a rule name of 101 characters',
      [
        { conditions: {}, target: 'https://example.com/x' },
        { name: 'y'.repeat(101), conditions: {}, target: 'https://example.com/x' },
      ],
      'rules[1].name',
    ],
  ])('400 naming the field on create and update: %s', async (_case, rules, field) => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/qrcodes',
      headers: auth(key),
      payload: { type: 'url', content: { url: 'https://example.com/' }, is_dynamic: true, rules },
    });
    expect(expectFieldErrors(created, field)).toEqual([{ field, message: expect.stringContaining(field) }]);
    const code = await createQr(t, key, { is_dynamic: true });
    expectFieldErrors(await updateQr(t, key, code.id, { rules }), field);
  });

  it('names of exactly 1 and 100 characters are kept', async () => {
    const rules = [{ name: 'r'.repeat(100), conditions: {}, target: split(['a', 'b'.repeat(100)]) }];
    const code = await createQr(t, key, { is_dynamic: true, rules });
    expect((await getQr(t, key, code.id)).json().rules).toEqual(rules);
  });
});
