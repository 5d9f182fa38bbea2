import { parseAllowlist, parseThreatFeeds } from './feed-config';

describe('parseThreatFeeds', () => {
  it('reads named and unnamed entries, URLs with commas, and file paths', () => {
    const parsed = parseThreatFeeds(
      'urlhaus=urlhaus:https://urlhaus.abuse.ch/downloads/csv_online/, ops=hosts:/etc/qr/blocked-hosts.txt,urls:https://feeds.example/list?a=1,2,PT=phishtank:./pt.json',
    );
    expect(parsed).toEqual({
      ok: true,
      value: [
        { name: 'urlhaus', format: 'urlhaus', location: 'https://urlhaus.abuse.ch/downloads/csv_online/', kind: 'url' },
        { name: 'ops', format: 'hosts', location: '/etc/qr/blocked-hosts.txt', kind: 'file' },
        { name: 'urls', format: 'urls', location: 'https://feeds.example/list?a=1,2', kind: 'url' },
        { name: 'pt', format: 'phishtank', location: './pt.json', kind: 'file' },
      ],
    });
  });

  it.each([
    ['', []],
    ['   ', []],
  ])('unset or blank (%p) is no feed', (text, feeds) => {
    expect(parseThreatFeeds(text)).toEqual({ ok: true, value: feeds });
    expect(parseThreatFeeds(undefined)).toEqual({ ok: true, value: [] });
  });

  it.each([
    ['csv:https://x.example/', /not \[name=\]format:location/],
    ['urls:https://a.example/,urls:https://b.example/', /used twice/],
    ['local=hosts:/x', /operator's own/],
    ['bad name=urls:https://a.example/', /feed name/],
    ['urls:https://', /not a valid URL/],
  ])('refuses %s', (text, problem) => {
    const parsed = parseThreatFeeds(text);
    expect(!parsed.ok && parsed.problem).toMatch(problem);
  });
});

describe('parseAllowlist', () => {
  it('reads hosts and host + path prefixes', () => {
    expect(parseAllowlist('example.com, sites.google.com/view/ours ,')).toEqual({
      ok: true,
      value: ['h:example.com', 'p:sites.google.com/view/ours'],
    });
  });

  it('refuses a query', () => {
    const parsed = parseAllowlist('example.com/?x=1');
    expect(!parsed.ok && parsed.problem).toMatch(/not a host/);
  });
});
