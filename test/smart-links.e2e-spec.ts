import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { auth, createQr, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT, getQr, updateQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';
import { USER_AGENTS } from './support/user-agents';

jest.setTimeout(60_000);

const IPHONE = USER_AGENTS.iphone.ua;
/** The redirect host believes X-Forwarded-For (one hop) and the CDN's country header: each test scans as the visitor it names. */
const TRUSTED_PROXY = { TRUST_PROXY: '1', GEO_COUNTRY_HEADER: 'CF-IPCountry' };

interface ScanOptions {
  /** light-my-request sends a user agent of its own when none is given */
  ua?: string;
  ip?: string;
  country?: string;
  language?: string;
  query?: string;
  cookie?: string;
  method?: 'GET' | 'HEAD';
}

/** The local weekday (mon…sun) and "HH:MM" of `at` in `timeZone`. */
function wallClock(at: number, timeZone: string): { day: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { day: parts.weekday.toLowerCase(), time: `${parts.hour}:${parts.minute}` };
}

/**
 * Smart links through the real redirect host on the test database and Redis (docs/smart-links.md):
 * every rule condition, first match, splits, the link controls, the API of the fields, history and
 * restore of rules and password, the stored rule and arm of each scan, and the dry-run resolver.
 */
describe('smart links (e2e)', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, ...TRUSTED_PROXY });
    ({ key } = await t.newAccount());
  });
  afterAll(() => t?.close());

  let nextVisitor = 1;
  /** A fresh documentation address for each call (password attempts are limited per address). */
  const freshIp = () => `198.18.${Math.floor(nextVisitor / 250)}.${(nextVisitor++ % 250) + 1}`;

  const scan = (shortCode: string, options: ScanOptions = {}) => {
    const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? '198.51.100.77' };
    headers['user-agent'] = options.ua ?? IPHONE;
    if (options.country) headers['cf-ipcountry'] = options.country;
    if (options.language) headers['accept-language'] = options.language;
    if (options.cookie) headers.cookie = options.cookie;
    return t.request({ method: options.method ?? 'GET', url: `/r/${shortCode}${options.query ?? ''}`, headers, remoteAddress: '127.0.0.1' });
  };
  const locationOf = async (shortCode: string, options: ScanOptions = {}) => {
    const res = await scan(shortCode, options);
    return res.statusCode === 302 ? (res.headers.location as string) : `HTTP ${res.statusCode}`;
  };
  const dynamic = (url: string, fields: Record<string, unknown>) => createQr(t, key, { content: { url }, is_dynamic: true, ...fields });
  const scansOf = async (id: string) => (await getQr(t, key, id)).json().scans as number;
  const flush = () => t.app.get(ScanBuffer).flush();
  const storedEvents = async (id: string) => {
    await flush();
    return t.prisma.scanEvent.findMany({ where: { qrCodeId: id }, orderBy: { scannedAt: 'asc' } });
  };
  const resolve = async (id: string, body: Record<string, unknown>) => {
    const res = await t.request({ method: 'POST', url: `/api/v1/qrcodes/${id}/resolve`, headers: auth(key), payload: body });
    expectStatus(res, 200);
    return res.json();
  };
  const postPassword = (shortCode: string, password: string, ip: string, query = '') =>
    t.request({
      method: 'POST',
      url: `/r/${shortCode}${query}`,
      headers: { 'x-forwarded-for': ip, 'user-agent': IPHONE, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ password }).toString(),
      remoteAddress: '127.0.0.1',
    });
  /** The cookie pair (`name=value`) a Set-Cookie header sets. */
  const cookieOf = (setCookie: string | string[] | undefined) => String(setCookie).split(';')[0];

  describe('conditions', () => {
    it('device, os and browser: real user agents, the first rule that holds wins, a bot has no device', async () => {
      const code = await dynamic('https://example.com/default', {
        rules: [
          { name: 'iPad', conditions: { os: ['ios'], device: ['tablet'] }, target: 'https://example.com/ipad' },
          { conditions: { browser: ['samsung'] }, target: 'https://example.com/samsung' },
          { conditions: { device: ['mobile'], os: ['android'] }, target: 'https://example.com/android-phone' },
          { conditions: { os: ['windows'], browser: ['edge'] }, target: 'https://example.com/windows-edge' },
          { conditions: { os: ['macos'], browser: ['firefox', 'safari'] }, target: 'https://example.com/mac' },
          { conditions: { device: ['desktop'] }, target: 'https://example.com/desktop' },
          { conditions: { device: ['mobile'] }, target: 'https://example.com/mobile' },
          { conditions: { os: ['other'], browser: ['other'] }, target: 'https://example.com/other' },
        ],
      });
      const expected: Array<[keyof typeof USER_AGENTS, string]> = [
        ['iphone', 'https://example.com/mobile'],
        ['ipad', 'https://example.com/ipad'],
        // Rule 2 holds too: the earlier rule answers.
        ['samsung', 'https://example.com/samsung'],
        ['pixel', 'https://example.com/android-phone'],
        ['windowsEdge', 'https://example.com/windows-edge'],
        ['macFirefox', 'https://example.com/mac'],
        ['linuxChrome', 'https://example.com/desktop'],
        ['slackbot', 'https://example.com/other'],
      ];
      const got = [];
      for (const [name] of expected) got.push([name, await locationOf(code.short_code, { ua: USER_AGENTS[name].ua })]);
      expect(got).toEqual(expected);
      const events = await storedEvents(code.id);
      expect(events.map((event) => event.ruleIndex).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(events.every((event) => event.armIndex === null)).toBe(true);
    });

    it('language: the most preferred language by quality value, ranges covering subtags, q=0 and * left out', async () => {
      const code = await dynamic('https://example.com/default', {
        rules: [
          { conditions: { language: ['de'] }, target: 'https://example.com/de' },
          { conditions: { language: ['fr-CA'] }, target: 'https://example.com/fr-ca' },
          { conditions: { language: ['en'] }, target: 'https://example.com/en' },
        ],
      });
      const cases: Array<[string | undefined, string]> = [
        ['de-AT,de;q=0.9,en;q=0.5', 'https://example.com/de'],
        ['en-US,de;q=0.9', 'https://example.com/en'],
        ['fr;q=0.5, de-CH;q=0.8', 'https://example.com/de'],
        ['fr-CA', 'https://example.com/fr-ca'],
        ['fr-ca;q=0.9, *;q=1, en;q=0.2', 'https://example.com/fr-ca'],
        ['de;q=0, en-GB;q=0.1', 'https://example.com/en'],
        ['fr', 'https://example.com/default'],
        ['de;q=abc, en;q=0.5', 'https://example.com/en'],
        [undefined, 'https://example.com/default'],
      ];
      const got = [];
      for (const [language] of cases) got.push([language, await locationOf(code.short_code, { language })]);
      expect(got).toEqual(cases);
    });

    it('country: from the trusted CDN header, else the bundled database by the forwarded address; unknown matches none', async () => {
      const code = await dynamic('https://example.com/default', {
        rules: [
          { conditions: { country: ['at', 'DE'] }, target: 'https://example.com/dach' },
          { conditions: { country: ['US'] }, target: 'https://example.com/us' },
        ],
      });
      expect((await getQr(t, key, code.id)).json().rules[0].conditions.country).toEqual(['AT', 'DE']);
      expect(await locationOf(code.short_code, { country: 'AT' })).toBe('https://example.com/dach');
      expect(await locationOf(code.short_code, { country: 'de' })).toBe('https://example.com/dach');
      expect(await locationOf(code.short_code, { country: 'FR' })).toBe('https://example.com/default');
      // Cloudflare's "unknown" and a private address: no country, no country rule.
      expect(await locationOf(code.short_code, { country: 'XX', ip: '10.1.2.3' })).toBe('https://example.com/default');
      expect(await locationOf(code.short_code, { ip: '10.1.2.3' })).toBe('https://example.com/default');
      expect(await locationOf(code.short_code, { ip: '8.8.8.8' })).toBe('https://example.com/us');
      // Scans of one millisecond share their time: compared as a set.
      const stored = (await storedEvents(code.id)).map((event) => `${event.country}:${event.ruleIndex}`);
      expect(stored.sort()).toEqual(['AT:0', 'DE:0', 'FR:null', 'US:1', 'null:null', 'null:null']);
    });

    it('time: from/to around the real clock, days and hours in a named zone (a window spanning midnight included)', async () => {
      const now = Date.now();
      const hour = 3_600_000;
      const tokyo = wallClock(now, 'Asia/Tokyo');
      const earlier = wallClock(now - 2 * hour, 'Asia/Tokyo').time;
      const later = wallClock(now + 2 * hour, 'Asia/Tokyo').time;
      // Neither today nor the day two hours on (the resolver's later check): after 22:00 in Tokyo that is tomorrow.
      const twoHoursOn = wallClock(now + 2 * hour + 60_000, 'Asia/Tokyo').day;
      const otherDays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].filter((day) => day !== tokyo.day && day !== twoHoursOn);
      const code = await dynamic('https://example.com/default', {
        rules: [
          {
            name: 'not yet',
            conditions: { time: { from: new Date(now + hour).toISOString(), to: new Date(now + 90 * 60_000).toISOString() } },
            target: 'https://example.com/future',
          },
          { name: 'over', conditions: { time: { to: new Date(now - hour).toISOString() } }, target: 'https://example.com/past' },
          {
            name: 'other days',
            conditions: { time: { days: otherDays, time_zone: 'Asia/Tokyo' } },
            target: 'https://example.com/other-days',
          },
          {
            name: 'later today',
            conditions: { time: { hours: { from: later, to: wallClock(now + 3 * hour, 'Asia/Tokyo').time }, time_zone: 'Asia/Tokyo' } },
            target: 'https://example.com/later',
          },
          {
            name: 'now in Tokyo',
            conditions: {
              time: {
                from: new Date(now - hour).toISOString(),
                to: new Date(now + hour).toISOString(),
                days: [tokyo.day],
                hours: { from: earlier, to: later },
                time_zone: 'Asia/Tokyo',
              },
            },
            target: 'https://example.com/now',
          },
        ],
      });
      expect(await locationOf(code.short_code)).toBe('https://example.com/now');
      const answer = await resolve(code.id, { user_agent: IPHONE });
      expect(answer.rules_not_matched.map((miss: { failed_condition: string }) => miss.failed_condition)).toEqual(['time', 'time', 'time', 'time']);
      expect(answer).toMatchObject({ outcome: 'redirect', location: 'https://example.com/now', rule: { index: 4, name: 'now in Tokyo' } });
      // Two hours on, "later today" holds (the resolver's `time`), and past `to` "now in Tokyo" no longer does.
      const inTwoHours = await resolve(code.id, { user_agent: IPHONE, time: new Date(now + 2 * hour + 60_000).toISOString() });
      expect(inTwoHours).toMatchObject({ location: 'https://example.com/later', rule: { index: 3 } });
    });

    it('time across DST changes in Europe/Berlin (the resolver at chosen instants): 09:00-17:30 local on both sides', async () => {
      const code = await dynamic('https://example.com/default', {
        rules: [
          {
            conditions: { time: { days: ['sun'], hours: { from: '09:00', to: '17:30' }, time_zone: 'Europe/Berlin' } },
            target: 'https://example.com/open',
          },
        ],
      });
      const at = async (time: string) => (await resolve(code.id, { time })).location;
      // 28 March 2027: clocks go forward at 01:00 UTC (CET → CEST).
      expect(await at('2027-03-28T06:59:00Z')).toBe('https://example.com/default');
      expect(await at('2027-03-28T07:00:00Z')).toBe('https://example.com/open');
      expect(await at('2027-03-28T15:29:00Z')).toBe('https://example.com/open');
      expect(await at('2027-03-28T15:30:00Z')).toBe('https://example.com/default');
      // 31 October 2027: clocks go back at 01:00 UTC (CEST → CET).
      expect(await at('2027-10-31T07:59:00Z')).toBe('https://example.com/default');
      expect(await at('2027-10-31T08:00:00Z')).toBe('https://example.com/open');
      expect(await at('2027-10-31T16:29:00Z')).toBe('https://example.com/open');
      expect(await at('2027-10-31T16:30:00Z')).toBe('https://example.com/default');
      // Saturday at 10:00 local: the wrong day.
      expect((await resolve(code.id, { time: '2027-10-30T08:00:00Z' })).rules_not_matched).toEqual([
        { index: 0, name: null, failed_condition: 'time' },
      ]);
    });

    it('query: the scanned link must carry each pair (any of a repeated parameter’s values)', async () => {
      const code = await dynamic('https://example.com/default', {
        rules: [
          { conditions: { query: { src: 'poster', lang: 'de' } }, target: 'https://example.com/poster-de' },
          { conditions: { query: { src: 'poster' } }, target: 'https://example.com/poster' },
        ],
      });
      expect(await locationOf(code.short_code, { query: '?src=poster' })).toBe('https://example.com/poster');
      expect(await locationOf(code.short_code, { query: '?lang=de&src=poster' })).toBe('https://example.com/poster-de');
      expect(await locationOf(code.short_code, { query: '?src=flyer&src=poster' })).toBe('https://example.com/poster');
      expect(await locationOf(code.short_code, { query: '?src=flyer' })).toBe('https://example.com/default');
      expect(await locationOf(code.short_code, { query: '?SRC=poster' })).toBe('https://example.com/default');
      expect(await locationOf(code.short_code)).toBe('https://example.com/default');
    });

    it('scans_below: the exact count (scans not yet stored included), bots and HEAD not counted', async () => {
      const code = await dynamic('https://example.com/default', {
        rules: [{ name: 'first three', conditions: { scans_below: 3 }, target: 'https://example.com/early' }],
      });
      expect(await locationOf(code.short_code, { ua: USER_AGENTS.slackbot.ua })).toBe('https://example.com/early');
      expect(await locationOf(code.short_code, { method: 'HEAD' })).toBe('https://example.com/early');
      const got = [];
      for (let i = 0; i < 5; i++) {
        got.push(await locationOf(code.short_code));
        // Every second scan is stored before the next: the count is stored plus pending.
        if (i % 2 === 1) await flush();
      }
      expect(got).toEqual([...Array(3).fill('https://example.com/early'), ...Array(2).fill('https://example.com/default')]);
      expect(await scansOf(code.id)).toBe(5);
      expect((await resolve(code.id, {})).rules_not_matched).toEqual([{ index: 0, name: 'first three', failed_condition: 'scans_below' }]);
    });
  });

  describe('splits', () => {
    it('sticky per visitor (address and user agent), both arms used, the arm and rule stored with each scan', async () => {
      const code = await dynamic('https://example.com/default', {
        rules: [
          { conditions: { query: { never: 'x' } }, target: 'https://example.com/never' },
          {
            name: 'A/B',
            conditions: {},
            target: {
              split: [
                { url: 'https://example.com/a', weight: 50 },
                { url: 'https://example.com/b', weight: 50 },
              ],
            },
          },
        ],
      });
      const visitors = Array.from({ length: 30 }, (_, i) => ({ ip: `203.0.113.${i + 1}`, ua: i % 2 ? IPHONE : USER_AGENTS.pixel.ua }));
      const first = [];
      for (const visitor of visitors) first.push(await locationOf(code.short_code, visitor));
      const second = [];
      for (const visitor of visitors) second.push(await locationOf(code.short_code, visitor));
      expect(second).toEqual(first);
      expect(new Set(first)).toEqual(new Set(['https://example.com/a', 'https://example.com/b']));
      // The resolver, asked for the same visitor, names the same arm.
      for (const [index, visitor] of visitors.slice(0, 6).entries()) {
        const answer = await resolve(code.id, { visitor: visitor.ip, user_agent: visitor.ua });
        expect(answer.location).toBe(first[index]);
        expect(answer.arm).toBe(first[index].endsWith('/a') ? 0 : 1);
      }
      const events = await storedEvents(code.id);
      expect(events).toHaveLength(60);
      expect(events.every((event) => event.ruleIndex === 1)).toBe(true);
      const toA = first.filter((location) => location.endsWith('/a')).length;
      expect(events.filter((event) => event.armIndex === 0)).toHaveLength(2 * toA);
      expect(events.filter((event) => event.armIndex === 1)).toHaveLength(2 * (30 - toA));
      // /scans counts them by rule and by arm.
      const analytics = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans`, headers: auth(key) });
      expectStatus(analytics, 200);
      expect(analytics.json().by_rule).toEqual([{ rule: 1, name: 'A/B', scans: 60 }]);
      expect(analytics.json().by_arm).toEqual(
        expect.arrayContaining([
          { rule: 1, arm: 0, name: null, scans: 2 * toA },
          { rule: 1, arm: 1, name: null, scans: 2 * (30 - toA) },
        ]),
      );
    });
  });

  describe('link controls', () => {
    it('max_scans without fallback_url: the limit reached page (410) after it; bots and HEAD use none of it', async () => {
      const code = await dynamic('https://example.com/limited', { max_scans: 3 });
      expect(await locationOf(code.short_code, { ua: USER_AGENTS.slackbot.ua })).toBe('https://example.com/limited');
      expect(await locationOf(code.short_code, { method: 'HEAD' })).toBe('https://example.com/limited');
      const got = [];
      for (let i = 0; i < 5; i++) got.push(await locationOf(code.short_code));
      expect(got).toEqual([...Array(3).fill('https://example.com/limited'), 'HTTP 410', 'HTTP 410']);
      const page = await scan(code.short_code);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('Scan limit reached');
      expect(await scansOf(code.id)).toBe(3);
      expect(await resolve(code.id, { user_agent: IPHONE })).toMatchObject({ outcome: 'limit_reached', status: 410, location: null, scans: 3 });
      // Without a user agent the scan is a bot's, which no limit stops (as at the redirect host).
      expect(await resolve(code.id, {})).toMatchObject({ outcome: 'redirect', location: 'https://example.com/limited' });
      // A bot is still answered: its scan was never going to count.
      expect(await locationOf(code.short_code, { ua: USER_AGENTS.slackbot.ua })).toBe('https://example.com/limited');
    });

    it('max_scans with fallback_url: later scans are sent there (302); raising the limit lets scans through again', async () => {
      const code = await dynamic('https://example.com/limited', { max_scans: 2, fallback_url: 'https://example.com/sold-out' });
      const got = [];
      for (let i = 0; i < 3; i++) got.push(await locationOf(code.short_code));
      expect(got).toEqual(['https://example.com/limited', 'https://example.com/limited', 'https://example.com/sold-out']);
      expect(await resolve(code.id, { user_agent: IPHONE })).toMatchObject({
        outcome: 'limit_reached',
        status: 302,
        location: 'https://example.com/sold-out',
      });
      expectStatus(await updateQr(t, key, code.id, { max_scans: 3 }), 200);
      expect(await locationOf(code.short_code)).toBe('https://example.com/limited');
      expect(await locationOf(code.short_code)).toBe('https://example.com/sold-out');
      expect(await scansOf(code.id)).toBe(3);
    });

    it('max_scans on a landing-page code: the page, then the limit reached page', async () => {
      const code = await createQr(t, key, { type: 'text', content: { text: 'Free coffee today' }, is_dynamic: true, max_scans: 1 });
      const page = await scan(code.short_code);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Free coffee today');
      const limited = await scan(code.short_code);
      expect(limited.statusCode).toBe(410);
      expect(limited.body).toContain('Scan limit reached');
      expect(limited.body).not.toContain('Free coffee today');
    });

    it('utm: added to the code’s URL, rule URLs and split arms, never duplicating a parameter the target has', async () => {
      const utm = { source: 'qr', medium: 'print', campaign: 'spring sale' };
      const code = await dynamic('https://example.com/p?utm_source=own&x=1', {
        utm,
        rules: [
          { conditions: { query: { to: 'rule' } }, target: 'https://example.com/r?utm_campaign=autumn#top' },
          {
            conditions: { query: { to: 'split' } },
            target: {
              split: [
                { url: 'https://example.com/s?utm_medium=poster', weight: 1 },
                { url: 'https://example.com/s?utm_medium=poster', weight: 1 },
              ],
            },
          },
        ],
      });
      expect(await locationOf(code.short_code)).toBe('https://example.com/p?utm_source=own&x=1&utm_medium=print&utm_campaign=spring%20sale');
      expect(await locationOf(code.short_code, { query: '?to=rule' })).toBe(
        'https://example.com/r?utm_campaign=autumn&utm_source=qr&utm_medium=print#top',
      );
      expect(await locationOf(code.short_code, { query: '?to=split' })).toBe(
        'https://example.com/s?utm_medium=poster&utm_source=qr&utm_campaign=spring%20sale',
      );
      for (const location of [await locationOf(code.short_code), await locationOf(code.short_code, { query: '?to=rule' })]) {
        const query = new URL(location).searchParams;
        for (const name of ['utm_source', 'utm_medium', 'utm_campaign']) expect(query.getAll(name)).toHaveLength(1);
      }
      expect((await getQr(t, key, code.id)).json().utm).toEqual(utm);
    });

    it('paused and expired are answered first: before the password form, the rules and the scan limit (which stays unused)', async () => {
      const fields = {
        password: 'open sesame',
        max_scans: 1,
        rules: [{ conditions: {}, target: 'https://example.com/rule' }],
      };
      const paused = await dynamic('https://example.com/target', fields);
      expectStatus(await updateQr(t, key, paused.id, { status: 'paused' }), 200);
      const pausedPage = await scan(paused.short_code);
      expect(pausedPage.statusCode).toBe(410);
      expect(pausedPage.body).toContain('This code is paused');
      expect(pausedPage.body).not.toContain('<form');
      expect((await postPassword(paused.short_code, 'open sesame', freshIp())).headers['set-cookie']).toBeUndefined();
      expect(await resolve(paused.id, { password_entered: true })).toMatchObject({ outcome: 'paused', status: 410 });

      const expired = await dynamic('https://example.com/target', { ...fields, expires_at: new Date(Date.now() + 86_400_000).toISOString() });
      // Expiry passes with time, not through the API: moved into the past before the link is first opened.
      await t.prisma.qrCode.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const expiredPage = await scan(expired.short_code);
      expect(expiredPage.statusCode).toBe(410);
      expect(expiredPage.body).toContain('This code has expired');
      expect(await resolve(expired.id, {})).toMatchObject({ outcome: 'expired', status: 410 });

      const reservations = await t.prisma.qrCodeScanReservation.count({ where: { qrCodeId: { in: [paused.id, expired.id] } } });
      expect(reservations).toBe(0);
      expect(await scansOf(paused.id)).toBe(0);
      expect(await scansOf(expired.id)).toBe(0);
    });

    it('password: the form (not a scan), a wrong password answers it again, a right one a cookie that opens the link once counted', async () => {
      const code = await dynamic('https://example.com/secret', { password: 'correct horse' });
      expect((await getQr(t, key, code.id)).json()).toMatchObject({ has_password: true });
      expect((await getQr(t, key, code.id)).json()).not.toHaveProperty('password');
      const ip = freshIp();
      const form = await scan(code.short_code, { ip, query: '?src=poster' });
      expect(form.statusCode).toBe(200);
      expect(form.headers['content-security-policy']).toContain("form-action 'self' http: https:;");
      expect(form.body).toContain(`<form method="post" action="/r/${code.short_code}?src=poster">`);
      expect(await resolve(code.id, {})).toMatchObject({ outcome: 'password_required', status: 200 });

      const wrong = await postPassword(code.short_code, 'wrong horse', ip, '?src=poster');
      expect(wrong.statusCode).toBe(403);
      expect(wrong.body).toContain('Wrong password.');
      expect(wrong.headers['set-cookie']).toBeUndefined();

      const right = await postPassword(code.short_code, 'correct horse', ip, '?src=poster');
      expect(right.statusCode).toBe(303);
      expect(right.headers.location).toBe(`/r/${code.short_code}?src=poster`);
      const setCookie = String(right.headers['set-cookie']);
      expect(setCookie).toMatch(
        new RegExp(`^qr_pw_${code.short_code}=\\d+\\.[A-Za-z0-9_-]+; Path=/r/${code.short_code}; Max-Age=900; HttpOnly; SameSite=Lax$`),
      );
      expect(await scansOf(code.id)).toBe(0);

      const cookie = cookieOf(setCookie);
      expect(await locationOf(code.short_code, { ip, cookie, query: '?src=poster' })).toBe('https://example.com/secret');
      expect(await scansOf(code.id)).toBe(1);
      // The cookie is the link's, not the visitor's: another address with it goes through; a forged one does not.
      expect(await locationOf(code.short_code, { ip: freshIp(), cookie })).toBe('https://example.com/secret');
      expect(await locationOf(code.short_code, { cookie: cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) })).toBe('HTTP 200');
      // A new password ends every session.
      expectStatus(await updateQr(t, key, code.id, { password: 'battery staple' }), 200);
      expect(await locationOf(code.short_code, { ip, cookie })).toBe('HTTP 200');
      expectStatus(await updateQr(t, key, code.id, { password: null }), 200);
      expect((await getQr(t, key, code.id)).json().has_password).toBe(false);
      expect(await locationOf(code.short_code)).toBe('https://example.com/secret');
    });

    it('password attempts: 5 per visitor address, then "too many attempts" (429) even for the right one; other visitors go on', async () => {
      const code = await dynamic('https://example.com/secret', { password: 'correct horse' });
      const ip = freshIp();
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await postPassword(code.short_code, `guess ${i}`, ip)).statusCode);
      expect(statuses).toEqual([403, 403, 403, 403, 403]);
      const blocked = await postPassword(code.short_code, 'correct horse', ip);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.body).toContain('Too many attempts');
      expect(blocked.headers['set-cookie']).toBeUndefined();
      expect((await postPassword(code.short_code, 'correct horse', freshIp())).statusCode).toBe(303);
    });
  });

  describe('the API of the fields', () => {
    const rules = [
      {
        name: 'Austria, German',
        conditions: {
          country: ['at'],
          language: ['DE'],
          time: { days: ['mon', 'fri'], hours: { from: '09:00', to: '17:30' }, time_zone: 'Europe/Vienna' },
        },
        target: 'https://example.com/at',
      },
      {
        conditions: { device: ['mobile'], query: { src: 'poster' }, scans_below: 1000 },
        target: {
          split: [
            { url: 'https://example.com/a', weight: 30 },
            { url: 'https://example.com/b', weight: 70 },
          ],
        },
      },
    ];
    const stored = [{ ...rules[0], conditions: { ...rules[0].conditions, country: ['AT'], language: ['de'] } }, rules[1]];

    it('create, get, list and bulk create carry rules and controls; the password is write-only; update changes only what it names', async () => {
      const fields = { rules, max_scans: 500, fallback_url: 'https://example.com/sold-out', utm: { source: 'qr', campaign: 'spring' } };
      // The create answers are the interface's (no smart-link fields): get and list carry them.
      const created = await dynamic('https://example.com/main', { ...fields, password: 'hunter22' });
      expect(JSON.stringify(created)).not.toContain('hunter22');
      expect((await getQr(t, key, created.id)).json()).toMatchObject({ ...fields, rules: stored, has_password: true });
      const list = (await t.request({ method: 'GET', url: '/api/v1/qrcodes?limit=100', headers: auth(key) })).json();
      expect(list.data.find((code: { id: string }) => code.id === created.id)).toMatchObject({ rules: stored, max_scans: 500, has_password: true });
      expect(JSON.stringify(list)).not.toContain('hunter22');

      const bulk = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes/bulk',
        headers: auth(key),
        payload: {
          qrcodes: [
            { type: 'url', content: { url: 'https://example.com/bulk' }, is_dynamic: true, ...fields },
            { type: 'url', content: { url: 'https://example.com/bulk' }, is_dynamic: true, rules: [{ conditions: {}, target: 'ftp://x' }] },
          ],
        },
      });
      expectStatus(bulk, 201);
      expect((await getQr(t, key, bulk.json().created[0].id)).json()).toMatchObject({ ...fields, rules: stored, has_password: false });
      expect(bulk.json().errors).toEqual([{ index: 1, errors: [expect.objectContaining({ field: 'rules[0].target' })] }]);

      const renamed = await updateQr(t, key, created.id, { name: 'Renamed' });
      expect(renamed.json().qrcode).toMatchObject({ ...fields, rules: stored, has_password: true });
      const cleared = await updateQr(t, key, created.id, { rules: null, max_scans: null, fallback_url: null, utm: null, password: null });
      expect(cleared.json().qrcode).toMatchObject({ rules: [], max_scans: null, fallback_url: null, utm: null, has_password: false });
      expect(await locationOf(created.short_code, { query: '?src=poster' })).toBe('https://example.com/main');
    });

    it.each([
      ['an unknown condition', [{ conditions: { weather: ['sunny'] }, target: 'https://example.com/x' }], 'rules[0].conditions.weather'],
      ['an unknown device', [{ conditions: { device: ['watch'] }, target: 'https://example.com/x' }], 'rules[0].conditions.device[0]'],
      ['an empty list', [{ conditions: { os: [] }, target: 'https://example.com/x' }], 'rules[0].conditions.os'],
      ['an unknown country', [{ conditions: { country: ['XX'] }, target: 'https://example.com/x' }], 'rules[0].conditions.country[0]'],
      [
        'an unknown time zone',
        [{}, {}, {}, { conditions: { time: { days: ['mon'], time_zone: 'Mars/Olympus' } }, target: 'https://example.com/x' }],
        'rules[3].conditions.time.time_zone',
      ],
      [
        'hours.from == hours.to',
        [{ conditions: { time: { hours: { from: '09:00', to: '09:00' } } }, target: 'https://example.com/x' }],
        'rules[0].conditions.time.hours.to',
      ],
      [
        'from ≥ to',
        [{ conditions: { time: { from: '2027-01-02T00:00:00Z', to: '2027-01-01T00:00:00Z' } }, target: 'https://example.com/x' }],
        'rules[0].conditions.time.to',
      ],
      ['an unsafe target', [{ conditions: {}, target: 'javascript:alert(1)' }], 'rules[0].target'],
      ['a looping target', [{ conditions: {}, target: 'http://qr.test/r/abcdefg' }], 'rules[0].target'],
      [
        'a split weight out of range',
        [
          {
            conditions: {},
            target: {
              split: [
                { url: 'https://example.com/a', weight: 0 },
                { url: 'https://example.com/b', weight: 1 },
              ],
            },
          },
        ],
        'rules[0].target.split[0].weight',
      ],
      ['a split of one arm', [{ conditions: {}, target: { split: [{ url: 'https://example.com/a', weight: 1 }] } }], 'rules[0].target.split'],
      ['"content" on a url code', [{ conditions: {}, target: 'content' }], 'rules[0].target'],
      ['21 rules', Array.from({ length: 21 }, () => ({ conditions: {}, target: 'https://example.com/x' })), 'rules'],
    ])('400 naming the field path: %s', async (_case, badRules, field) => {
      const filled = (badRules as Array<Record<string, unknown>>).map((rule) =>
        'target' in rule ? rule : { conditions: {}, target: 'https://example.com/ok' },
      );
      expectFieldErrors(
        await t.request({
          method: 'POST',
          url: '/api/v1/qrcodes',
          headers: auth(key),
          payload: { type: 'url', content: { url: 'https://example.com/' }, is_dynamic: true, rules: filled },
        }),
        field,
      );
    });

    it.each([
      ['max_scans', 0],
      ['max_scans', 1.5],
      ['password', 'abc'],
      ['password', 'x'.repeat(129)],
      ['fallback_url', 'ftp://example.com/'],
      ['utm', { source: 'qr', weather: 'sunny' }],
    ])('400 naming %s for %j (create and update)', async (field, value) => {
      const create = await t.request({
        method: 'POST',
        url: '/api/v1/qrcodes',
        headers: auth(key),
        payload: { type: 'url', content: { url: 'https://example.com/' }, is_dynamic: true, [field]: value },
      });
      const named = expectFieldErrors(create).map((error) => error.field);
      expect(named.some((name) => name === field || name.startsWith(`${field}.`))).toBe(true);
      const code = await dynamic('https://example.com/', {});
      const update = expectFieldErrors(await updateQr(t, key, code.id, { [field]: value })).map((error) => error.field);
      expect(update.some((name) => name === field || name.startsWith(`${field}.`))).toBe(true);
    });

    it.each([
      ['rules', [{ conditions: {}, target: 'https://example.com/x' }]],
      ['max_scans', 10],
      ['fallback_url', 'https://example.com/sold-out'],
      ['password', 'hunter22'],
      ['utm', { source: 'qr' }],
    ])('a static code refuses %s (400 naming it), on create and update', async (field, value) => {
      expectFieldErrors(
        await t.request({
          method: 'POST',
          url: '/api/v1/qrcodes',
          headers: auth(key),
          payload: { type: 'url', content: { url: 'https://example.com/' }, [field]: value },
        }),
        field,
      );
      const code = await createQr(t, key, { content: { url: 'https://example.com/' } });
      expectFieldErrors(await updateQr(t, key, code.id, { [field]: value }), field);
      expect((await getQr(t, key, code.id)).json()).not.toHaveProperty(field);
    });
  });

  describe('history and restore', () => {
    it('each change of rules is a version; restoring one brings its rules back at the redirect host', async () => {
      const v2Rules = [{ name: 'posters', conditions: { query: { src: 'poster' } }, target: 'https://example.com/v2' }];
      const code = await dynamic('https://example.com/main', {});
      expectStatus(await updateQr(t, key, code.id, { rules: v2Rules }), 200);
      expectStatus(
        await updateQr(t, key, code.id, { rules: [{ conditions: { query: { src: 'poster' } }, target: 'https://example.com/v3' }], max_scans: 50 }),
        200,
      );
      expect(await locationOf(code.short_code, { query: '?src=poster' })).toBe('https://example.com/v3');
      const history = (await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/history`, headers: auth(key) })).json();
      expect(history.data.map((version: { version: number }) => version.version)).toEqual([3, 2, 1]);
      expect(history.data[1]).toMatchObject({ before: { rules: [] }, after: { rules: v2Rules } });
      expect(history.data[0]).toMatchObject({ before: { rules: v2Rules, max_scans: null }, after: { max_scans: 50 } });

      expectStatus(await t.request({ method: 'POST', url: `/api/v1/qrcodes/${code.id}/history/2/restore`, headers: auth(key) }), 200);
      expect((await getQr(t, key, code.id)).json()).toMatchObject({ rules: v2Rules, max_scans: null });
      expect(await locationOf(code.short_code, { query: '?src=poster' })).toBe('https://example.com/v2');
    });

    it('the password: history shows "changed", never the value; a restored password works again at the redirect host', async () => {
      const code = await dynamic('https://example.com/secret', {});
      expectStatus(await updateQr(t, key, code.id, { password: 'first password' }), 200);
      expectStatus(await updateQr(t, key, code.id, { password: 'second password' }), 200);
      const history = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/history`, headers: auth(key) });
      expect(history.json().data.slice(0, 2)).toEqual([
        expect.objectContaining({ version: 3, before: { password: 'changed' }, after: { password: 'changed' } }),
        expect.objectContaining({ version: 2, before: { password: null }, after: { password: 'changed' } }),
      ]);
      expect(history.body).not.toMatch(/first password|second password|argon2/);
      expect((await postPassword(code.short_code, 'first password', freshIp())).statusCode).toBe(403);

      expectStatus(await t.request({ method: 'POST', url: `/api/v1/qrcodes/${code.id}/history/2/restore`, headers: auth(key) }), 200);
      const ip = freshIp();
      expect((await postPassword(code.short_code, 'second password', ip)).statusCode).toBe(403);
      const accepted = await postPassword(code.short_code, 'first password', ip);
      expect(accepted.statusCode).toBe(303);
      expect(await locationOf(code.short_code, { ip, cookie: cookieOf(accepted.headers['set-cookie']) })).toBe('https://example.com/secret');

      expectStatus(await t.request({ method: 'POST', url: `/api/v1/qrcodes/${code.id}/history/1/restore`, headers: auth(key) }), 200);
      expect((await getQr(t, key, code.id)).json().has_password).toBe(false);
      expect(await locationOf(code.short_code)).toBe('https://example.com/secret');
    });
  });

  describe('the dry-run resolver', () => {
    it('names the rule, the arm and each earlier rule’s first failed condition; counts nothing', async () => {
      const code = await dynamic('https://example.com/default', {
        utm: { source: 'qr' },
        rules: [
          { name: 'US', conditions: { country: ['US'], device: ['mobile'] }, target: 'https://example.com/us' },
          { name: 'Desktop Germans', conditions: { language: ['de'], device: ['desktop'] }, target: 'https://example.com/de-desktop' },
          { name: 'Posters', conditions: { query: { src: 'poster' }, country: ['AT'] }, target: 'https://example.com/poster' },
          { name: 'German phones', conditions: { language: ['de'], os: ['ios', 'android'], browser: ['safari'] }, target: 'https://example.com/de' },
        ],
      });
      const answer = await resolve(code.id, { user_agent: IPHONE, accept_language: 'de-AT,de;q=0.9', country: 'AT', query: { src: 'flyer' } });
      expect({ ...answer, request_id: undefined }).toEqual({
        request_id: undefined,
        outcome: 'redirect',
        status: 302,
        location: 'https://example.com/de?utm_source=qr',
        rule: { index: 3, name: 'German phones' },
        arm: null,
        rules_not_matched: [
          { index: 0, name: 'US', failed_condition: 'country' },
          { index: 1, name: 'Desktop Germans', failed_condition: 'device' },
          { index: 2, name: 'Posters', failed_condition: 'query' },
        ],
        scans: 0,
      });
      const none = await resolve(code.id, { user_agent: USER_AGENTS.linuxChrome.ua, accept_language: 'en', country: null });
      expect(none).toMatchObject({ outcome: 'redirect', location: 'https://example.com/default?utm_source=qr', rule: null, arm: null });
      expect(none.rules_not_matched.map((miss: { failed_condition: string }) => miss.failed_condition)).toEqual([
        'country',
        'language',
        'query',
        'os',
      ]);
      // The redirect host agrees, and the resolver's calls counted nothing.
      expect(await locationOf(code.short_code, { language: 'de-AT,de;q=0.9', country: 'AT', query: '?src=flyer' })).toBe(
        'https://example.com/de?utm_source=qr',
      );
      expect(await scansOf(code.id)).toBe(1);
      const landing = await createQr(t, key, { type: 'text', content: { text: 'hello' }, is_dynamic: true });
      expect(await resolve(landing.id, {})).toMatchObject({ outcome: 'landing_page', status: 200, location: null });
      const fixed = await createQr(t, key, { content: { url: 'https://example.com/' } });
      expectFieldErrors(await t.request({ method: 'POST', url: `/api/v1/qrcodes/${fixed.id}/resolve`, headers: auth(key), payload: {} }), 'id');
    });

    it('refuses a country that is no ISO 3166-1 code (two letters are not enough), and takes one in any case', async () => {
      const code = await dynamic('https://example.com/default', { rules: [{ conditions: { country: ['AT'] }, target: 'https://example.com/at' }] });
      for (const country of ['ZZ', 'XX', 'A1', 'AUT']) {
        const res = await t.request({ method: 'POST', url: `/api/v1/qrcodes/${code.id}/resolve`, headers: auth(key), payload: { country } });
        expect(expectFieldErrors(res, 'country')[0].message).toBe('country must be an ISO 3166-1 alpha-2 code such as DE');
      }
      expect(await resolve(code.id, { country: 'at' })).toMatchObject({ location: 'https://example.com/at', rule: { index: 0 } });
    });
  });
});
