import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportedItem, ImportedLink } from './imported-link';
import { type ImportSource, readSourceFile } from './import-sources';

/** The sample files (made from each service's documented format) beside this spec, read on a fixed day. */
const NOW = new Date('2026-01-01T00:00:00Z');
const sample = (name: string) => readFileSync(join(__dirname, '__fixtures__', name), 'utf8');

/** A link compactly: its short links (`!` before one that cannot move), created date, item and the fields noted. */
interface Expected {
  row: number;
  links: string[];
  created: string | null;
  item: ImportedItem;
  noted: string[];
}

const compact = (link: ImportedLink): Expected => ({
  row: link.row,
  links: link.shortLinks.map((short) => `${short.movable ? '' : '!'}${short.host ?? ''}/${short.shortCode}`),
  created: link.createdAt?.toISOString() ?? null,
  item: JSON.parse(JSON.stringify(link.item)) as ImportedItem,
  noted: link.unmapped.map((note) => note.field),
});

const ANDROID_APP = 'https://play.google.com/store/apps/details?id=com.example.shop';
const IOS_APP = 'https://apps.apple.com/app/id123456789';

const CASES: Array<[ImportSource, 'csv' | 'json', string, Expected[]]> = [
  [
    'bitly',
    'json',
    'bitly-bitlinks.json',
    [
      {
        row: 1,
        links: ['go.acme.example/spring', '!bit.ly/3Kx9TqP'],
        created: '2023-03-01T09:15:00.000Z',
        item: { name: 'Spring sale poster', url: 'https://shop.example.com/spring?ref=poster', tags: ['spring', 'posters'] },
        noted: [],
      },
      {
        row: 2,
        links: ['!bit.ly/48dRw2L'],
        created: '2022-11-20T17:02:41.000Z',
        item: { name: 'bit.ly/48dRw2L', url: 'https://shop.example.com/', tags: ['store-12'] },
        noted: ['qr_code_ids', 'archived', 'tags[0]'],
      },
      {
        row: 3,
        links: ['go.acme.example/menu', 'go.acme.example/carte'],
        created: '2024-01-05T08:00:00.000Z',
        item: { name: 'Table menu', url: 'https://food.example.com/menu', tags: [] },
        noted: ['deeplinks', 'campaign_ids'],
      },
    ],
  ],
  [
    'bitly',
    'csv',
    'bitly-links.csv',
    [
      {
        row: 2,
        links: ['go.acme.example/spring', '!bit.ly/3Kx9TqP'],
        created: '2023-03-01T09:15:00.000Z',
        item: { name: 'Spring sale poster', url: 'https://shop.example.com/spring?ref=poster', tags: ['spring', 'posters'] },
        noted: ['clicks'],
      },
      {
        row: 3,
        links: ['!bit.ly/48dRw2L'],
        created: '2022-11-20T17:02:41.000Z',
        item: { name: 'bit.ly/48dRw2L', url: 'https://shop.example.com/', tags: ['store-12'] },
        noted: ['archived'],
      },
      {
        row: 4,
        links: ['go.acme.example/menu', 'go.acme.example/carte'],
        created: '2024-01-05T08:00:00.000Z',
        item: { name: 'Table menu, all day', url: 'https://food.example.com/menu', tags: [] },
        noted: ['clicks'],
      },
    ],
  ],
  [
    'shlink',
    'csv',
    'shlink-short-urls.csv',
    [
      {
        row: 2,
        links: ['s.acme.example/spring'],
        created: '2023-04-10T08:00:00.000Z',
        item: { name: 'Spring sale', url: 'https://shop.example.com/spring', tags: ['spring', 'posters'] },
        noted: ['visits'],
      },
      {
        row: 3,
        links: ['s.acme.example/menu-12'],
        created: '2023-04-11T08:30:00.000Z',
        item: { name: 's.acme.example/menu-12', url: 'https://food.example.com/menu?table=12', tags: ['menus'] },
        noted: [],
      },
      {
        row: 4,
        links: ['s.acme.example/a1'],
        created: '2023-05-02T12:00:00.000Z',
        item: { name: 'Short one', url: 'https://shop.example.com/a', tags: [] },
        noted: ['visits'],
      },
    ],
  ],
  [
    'shlink',
    'json',
    'shlink-short-urls.json',
    [
      {
        row: 1,
        links: ['s.acme.example/spring'],
        created: '2023-04-10T08:00:00.000Z',
        item: {
          name: 'Spring sale',
          url: 'https://shop.example.com/spring',
          tags: ['spring', 'posters'],
          expires_at: '2031-06-30T23:59:59.000Z',
          max_scans: 380,
          rules: [
            { name: 'android (Shlink)', conditions: { os: ['android'] }, target: ANDROID_APP },
            { name: 'ios (Shlink)', conditions: { os: ['ios'] }, target: IOS_APP },
          ],
        },
        noted: ['visitsSummary.total', 'meta.maxVisits', 'forwardQuery'],
      },
      {
        row: 2,
        links: ['s.acme.example/winter'],
        created: '2022-11-01T08:00:00.000Z',
        item: { name: 's.acme.example/winter', url: 'https://shop.example.com/winter', tags: [], paused: true },
        noted: ['meta.validUntil', 'crawlable', 'hasRedirectRules'],
      },
    ],
  ],
  [
    'kutt',
    'json',
    'kutt-links.json',
    [
      {
        row: 1,
        links: ['k.acme.example/spring'],
        created: '2023-05-02T10:00:00.000Z',
        item: { name: 'Spring poster', url: 'https://shop.example.com/spring', tags: [] },
        noted: ['visit_count'],
      },
      {
        row: 2,
        links: ['!kutt.it/Xy7Qp'],
        created: '2023-06-12T09:30:00.000Z',
        item: { name: 'kutt.it/Xy7Qp', url: 'https://intranet.example.com/handbook', tags: [], expires_at: '2031-01-01T00:00:00.000Z' },
        noted: ['password'],
      },
      {
        row: 3,
        links: ['k.acme.example/old-promo'],
        created: '2021-01-15T00:00:00.000Z',
        item: { name: 'Old promo', url: 'https://shop.example.com/promo', tags: [], paused: true },
        noted: ['visit_count', 'banned'],
      },
    ],
  ],
  [
    'yourls',
    'csv',
    'yourls-url.csv',
    [
      {
        row: 2,
        links: ['/1'],
        created: '2019-06-01T12:00:00.000Z',
        item: { name: 'Acme shop', url: 'https://shop.example.com/', tags: [] },
        noted: ['ip', 'clicks'],
      },
      {
        row: 3,
        links: ['/spring'],
        created: '2023-03-01T09:00:00.000Z',
        item: { name: 'Spring sale', url: 'https://shop.example.com/spring', tags: [] },
        noted: ['ip', 'clicks'],
      },
      {
        row: 4,
        links: ['/menu'],
        created: '2023-03-02T10:00:00.000Z',
        item: { name: 'Menu, all day', url: 'https://food.example.com/menu', tags: [] },
        noted: ['ip'],
      },
    ],
  ],
  [
    'yourls',
    'json',
    'yourls-stats.json',
    [
      {
        row: 1,
        links: ['y.acme.example/1'],
        created: '2019-06-01T12:00:00.000Z',
        item: { name: 'Acme shop', url: 'https://shop.example.com/', tags: [] },
        noted: ['ip', 'clicks'],
      },
      {
        row: 2,
        links: ['y.acme.example/spring'],
        created: '2023-03-01T09:00:00.000Z',
        item: { name: 'Spring sale', url: 'https://shop.example.com/spring', tags: [] },
        noted: ['ip', 'clicks'],
      },
    ],
  ],
  [
    'dub',
    'csv',
    'dub-links.csv',
    [
      {
        row: 2,
        links: ['d.acme.example/spring'],
        created: '2024-02-01T10:00:00.000Z',
        item: { name: 'd.acme.example/spring', url: 'https://shop.example.com/spring', tags: ['spring', 'posters'] },
        noted: ['Clicks'],
      },
      {
        row: 3,
        links: ['!dub.sh/x7Yz9Qa'],
        created: '2024-02-03T11:00:00.000Z',
        item: { name: 'dub.sh/x7Yz9Qa', url: 'https://shop.example.com/', tags: [] },
        noted: ['Archived'],
      },
      {
        row: 4,
        links: ['d.acme.example/sale'],
        created: '2024-02-04T12:00:00.000Z',
        item: { name: 'd.acme.example/sale', url: 'https://shop.example.com/sale', tags: ['-20%'] },
        noted: ['Clicks'],
      },
    ],
  ],
  [
    'dub',
    'json',
    'dub-links.json',
    [
      {
        row: 1,
        links: ['d.acme.example/spring'],
        created: '2024-02-01T10:00:00.000Z',
        item: {
          name: 'Spring sale',
          url: 'https://shop.example.com/spring?utm_source=poster',
          tags: ['spring', 'posters'],
          expires_at: '2031-03-31T23:59:59.000Z',
          password: 'spring2024',
          rules: [
            { name: 'ios (Dub)', conditions: { os: ['ios'] }, target: IOS_APP },
            { name: 'DE (Dub)', conditions: { country: ['DE'] }, target: 'https://shop.example.com/de/spring' },
            { name: 'FR (Dub)', conditions: { country: ['FR'] }, target: 'https://shop.example.com/fr/spring' },
          ],
          utm: { medium: 'print' },
        },
        noted: ['expiredUrl', 'clicks'],
      },
      {
        row: 2,
        links: ['!dub.sh/x7Yz9Qa'],
        created: '2024-02-03T11:00:00.000Z',
        item: {
          name: 'dub.sh/x7Yz9Qa',
          url: 'https://shop.example.com/',
          tags: [],
          paused: true,
          rules: [
            {
              name: 'A/B test (Dub)',
              conditions: {},
              target: {
                split: [
                  { url: 'https://shop.example.com/a', weight: 50 },
                  { url: 'https://shop.example.com/b', weight: 50 },
                ],
              },
            },
          ],
        },
        noted: ['proxy', 'description', 'image', 'comments', 'expiresAt', 'archived'],
      },
    ],
  ],
];

describe('import sources', () => {
  it.each(CASES)('%s %s: %s', (source, format, file, expected) => {
    const read = readSourceFile(source, format, sample(file), NOW);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.links.map(compact)).toEqual(expected);
    for (const link of read.links) {
      expect(link.problems).toEqual([]);
      // Each note names its field and says what happened to it.
      for (const note of link.unmapped) expect(note.message.startsWith(`${note.field}: `)).toBe(true);
    }
  });

  it.each([
    ['kutt', 'csv', 'keyword,url\n1,https://a.example\n', 'a kutt import is json, not csv'],
    ['shlink', 'json', '{"shortUrls": 3}', 'a Shlink file is the short-urls list'],
    ['dub', 'json', '{"__proto__": {"polluted": true}}', 'the JSON cannot be read: the key "__proto__" is not allowed'],
    ['bitly', 'json', '[{', 'the JSON cannot be read'],
    ['yourls', 'csv', 'url,title\nhttps://a.example,A\n', 'a YOURLS CSV is the yourls_url table'],
    ['dub', 'csv', 'Link ID\nlink_1\n', 'a Dub CSV needs its "Short link" and "Destination URL" columns'],
    ['bitly', 'csv', 'title\nA\n', 'a Bitly CSV needs a long_url column'],
    ['shlink', 'csv', 'shortCode\nabc\n', 'a Shlink CSV needs a longUrl column'],
  ] as const)('refuses a %s %s file it cannot take (case %#)', (source, format, body, message) => {
    const read = readSourceFile(source, format, body, NOW);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.errors[0].message).toContain(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('fails a record without a target, or that is not an object, on its own', () => {
    const read = readSourceFile('shlink', 'json', JSON.stringify([{ shortCode: 'a' }, 'b', { shortCode: 'c', longUrl: 'https://c.example' }]), NOW);
    expect(read.ok && read.links.map((link) => link.problems.map((problem) => problem.field))).toEqual([['url'], ['shortUrl'], []]);
  });

  it('notes a title cut to 100 characters, and tags past 20', () => {
    const tags = Array.from({ length: 22 }, (_, index) => `t${index}`);
    const read = readSourceFile('bitly', 'json', JSON.stringify([{ long_url: 'https://a.example', title: 'x'.repeat(120), tags }]), NOW);
    const [link] = read.ok ? read.links : [];
    expect(link.item.name).toBe('x'.repeat(100));
    expect(link.item.tags).toEqual(tags.slice(0, 20));
    expect(link.unmapped.map((note) => note.field)).toEqual(['title', 'tags[20]', 'tags[21]']);
  });

  it('notes a date it cannot read', () => {
    const read = readSourceFile('kutt', 'json', JSON.stringify([{ target: 'https://a.example', address: 'a', created_at: 'yesterday' }]), NOW);
    expect(read.ok && read.links[0].createdAt).toBeNull();
    expect(read.ok && read.links[0].unmapped.map((note) => note.field)).toEqual(['created_at']);
  });
});
