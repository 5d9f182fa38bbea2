import { parseKeyPath, type Gs1Key, keyPath } from '../syntax/digital-link-key';
import type { Gs1Link, ItemLevel } from './gs1-link';
import { buildLinkset, queryWithoutLinkType, redirectLocation } from './linkset';
import { decide, type ResolverRequest } from './resolver-decision';
import { readResolverPath } from './resolver-path';
import { compressPath } from '../syntax/compression';

const key = (path: string): Gs1Key => {
  const parsed = parseKeyPath(path);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};
const link = (linkType: string, href: string, extra: Partial<Gs1Link> = {}): Gs1Link => ({
  linkType,
  href,
  title: href,
  hreflang: [],
  type: null,
  context: [],
  isDefault: false,
  ...extra,
});

const PIP_EN = link('gs1:pip', 'https://b.example/en', { hreflang: ['en'], type: 'text/html', isDefault: true });
const PIP_FR = link('gs1:pip', 'https://b.example/fr', { hreflang: ['fr'], type: 'text/html' });
const PIP_PDF = link('gs1:pip', 'https://b.example/en.pdf', { hreflang: ['en'], type: 'application/pdf' });
const RECALL = link('gs1:recallStatus', 'https://b.example/recall?lot={10}');
const CERT_A = link('gs1:certificationInfo', 'https://b.example/cert-a', { type: 'text/html' });
const CERT_B = link('gs1:certificationInfo', 'https://b.example/cert-b', { type: 'text/html' });
const CERT_FR = link('gs1:certificationInfo', 'https://b.example/cert-fr', { type: 'text/html', hreflang: ['fr'] });
const GTIN: ItemLevel = { key: key('/01/09506000134352'), name: 'Rice', links: [PIP_EN, PIP_FR, PIP_PDF, RECALL, CERT_A, CERT_B] };
const LOT_SAFETY = link('gs1:safetyInfo', 'https://b.example/lot-safety', { isDefault: true });
const LOT: ItemLevel = {
  key: key('/01/09506000134352/10/L1'),
  name: null,
  links: [LOT_SAFETY, link('gs1:recallStatus', 'https://b.example/lot-recall')],
};

const ask = (over: Partial<ResolverRequest> = {}): ResolverRequest => ({
  linkType: null,
  context: null,
  accept: undefined,
  acceptLanguage: undefined,
  ...over,
});
const target = (levels: ItemLevel[], request: ResolverRequest) => {
  const decision = decide(levels, request);
  return decision.kind === 'redirect'
    ? decision.link.href
    : decision.kind === 'choices'
      ? `300 ${decision.links.map((l) => l.href).join(' ')}`
      : decision.kind;
};

describe('decide (GS1-Conformant Resolver 1.2)', () => {
  it.each<[string, Partial<ResolverRequest>, string]>([
    ['no link type, no preferences: the default', {}, PIP_EN.href],
    ['no link type, curl-like Accept', { accept: '*/*' }, PIP_EN.href],
    ['no link type, French reader: the French link of the default type', { acceptLanguage: 'fr-CH, fr;q=0.9, en;q=0.8' }, PIP_FR.href],
    ['no link type, German reader: nothing better than the default', { acceptLanguage: 'de' }, PIP_EN.href],
    ['no link type, PDF wanted: the PDF of the default type', { accept: 'application/pdf' }, PIP_PDF.href],
    ['linkType=gs1:recallStatus', { linkType: 'gs1:recallStatus' }, RECALL.href],
    ['the link type by its URI', { linkType: 'https://gs1.org/voc/recallStatus' }, RECALL.href],
    ['the link type by its ref.gs1.org URI', { linkType: 'https://ref.gs1.org/voc/recallStatus' }, RECALL.href],
    ['a link type the item has none of', { linkType: 'gs1:nutritionalInfo' }, 'no-link'],
    ['a link type that does not exist', { linkType: 'gs1:nosuchlt' }, 'no-link'],
    ['another namespace', { linkType: 'schema:foo' }, 'no-link'],
    ['two languages, none asked: 300', { linkType: 'gs1:pip', accept: 'text/html' }, `300 ${PIP_EN.href} ${PIP_FR.href}`],
    ['two languages, English asked', { linkType: 'gs1:pip', accept: 'text/html', acceptLanguage: 'en' }, PIP_EN.href],
    ['two languages, en-GB asked matches en', { linkType: 'gs1:pip', accept: 'text/html', acceptLanguage: 'en-GB' }, PIP_EN.href],
    ['identical metadata: 300', { linkType: 'gs1:certificationInfo', accept: 'text/html' }, `300 ${CERT_A.href} ${CERT_B.href}`],
    ['gs1:defaultLink', { linkType: 'gs1:defaultLink', acceptLanguage: 'fr' }, PIP_EN.href],
    ['linkType=linkset', { linkType: 'linkset' }, 'linkset'],
    ['linkType=all', { linkType: 'all' }, 'linkset'],
    ['Accept: application/linkset+json', { accept: 'application/linkset+json' }, 'linkset'],
  ])('%s', (_case, request, expected) => expect(target([GTIN], ask(request))).toBe(expected));

  it('prefers a link made for no language when none is asked', () => {
    const item: ItemLevel = { ...GTIN, links: [PIP_EN, CERT_A, CERT_FR] };
    expect(target([item], ask({ linkType: 'gs1:certificationInfo', accept: 'text/html' }))).toBe(CERT_A.href);
    expect(target([item], ask({ linkType: 'gs1:certificationInfo', accept: 'text/html', acceptLanguage: 'fr' }))).toBe(CERT_FR.href);
  });

  it('context picks among links of a type', () => {
    const us = link('gs1:pip', 'https://b.example/us', { context: ['US'] });
    const item: ItemLevel = { ...GTIN, links: [PIP_EN, us] };
    expect(target([item], ask({ linkType: 'gs1:pip', context: 'US' }))).toBe(us.href);
    expect(target([item], ask({ linkType: 'gs1:pip' }))).toBe(PIP_EN.href);
  });

  it('a lot with links of its own answers them, and inherits the types it lacks', () => {
    expect(target([LOT, GTIN], ask())).toBe(LOT_SAFETY.href);
    expect(target([LOT, GTIN], ask({ linkType: 'gs1:recallStatus' }))).toBe('https://b.example/lot-recall');
    expect(target([LOT, GTIN], ask({ linkType: 'gs1:pip', acceptLanguage: 'fr' }))).toBe(PIP_FR.href);
  });
});

describe('linkset', () => {
  it('has one entry per level, anchored at its URI, with the default under gs1:defaultLink', () => {
    const values = new Map([
      ['01', '09506000134352'],
      ['10', 'L1'],
    ]);
    const { linkset } = buildLinkset([LOT, GTIN], (k) => `https://id.b.example${keyPath(k)}`, values);
    expect(linkset.map((entry) => entry.anchor)).toEqual(['https://id.b.example/01/09506000134352/10/L1', 'https://id.b.example/01/09506000134352']);
    expect(linkset[0].itemDescription).toBe('(01) 09506000134352 (10) L1');
    expect(linkset[1]['https://gs1.org/voc/defaultLink']).toEqual([{ href: PIP_EN.href, title: PIP_EN.title }]);
    expect(linkset[1]['https://gs1.org/voc/recallStatus']).toEqual([{ href: 'https://b.example/recall?lot=L1', title: RECALL.title }]);
    expect(linkset[1]['https://gs1.org/voc/pip']).toContainEqual({ href: PIP_FR.href, title: PIP_FR.title, type: 'text/html', hreflang: ['fr'] });
  });
});

describe('redirect location', () => {
  it.each([
    ['https://b.example/p', 'foo=bar', 'https://b.example/p?foo=bar'],
    ['https://b.example/p?a=1', '17=271231', 'https://b.example/p?a=1&17=271231'],
    ['https://b.example/p#top', 'x=1', 'https://b.example/p?x=1#top'],
    ['https://b.example/p?lot={10}', '', 'https://b.example/p?lot=A%2FB'],
  ])('%s with %s', (href, query, expected) => expect(redirectLocation(link('gs1:pip', href), new Map([['10', 'A/B']]), query)).toBe(expected));

  it('passes on every parameter but linkType', () => expect(queryWithoutLinkType('linkType=gs1%3Apip&foo=bar&17=271231')).toBe('foo=bar&17=271231'));
});

describe('readResolverPath', () => {
  it('reads data attributes into the values and refuses bad ones', () => {
    const read = readResolverPath('/01/09506000134352/10/L1/', '17=271231&foo=bar');
    expect(read.ok && [...read.value.values]).toEqual([
      ['01', '09506000134352'],
      ['10', 'L1'],
      ['17', '271231'],
    ]);
    expect(readResolverPath('/01/09506000134352', '17=271331').ok).toBe(false);
    expect(readResolverPath('/01/09506000134352', 'a=%E0%A4%A').ok).toBe(false);
  });

  it('decompresses a compressed URI and keeps its uncompressed form', () => {
    const compressed = new URL(compressPath('https://x.example', '/01/09506000134352/10/LOT42?17=271231'));
    const read = readResolverPath(compressed.pathname, '');
    if (!read.ok) throw new Error(read.message);
    expect(keyPath(read.value.key)).toBe('/01/09506000134352/10/LOT42');
    expect(read.value.uncompressed).toBe('/01/09506000134352/10/LOT42?17=271231');
    expect(readResolverPath('/zzzzzzzzzzzz', '').ok).toBe(false);
  });
});
