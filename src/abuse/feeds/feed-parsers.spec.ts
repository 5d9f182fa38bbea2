import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FeedFormatError, type FeedFormat, parseFeed } from './feed-parsers';

const fixture = (name: string) => readFileSync(join(__dirname, '__fixtures__', name), 'utf8');

describe('parseFeed', () => {
  it.each<[FeedFormat, string, string[], number]>([
    ['urlhaus', 'urlhaus.csv', ['p:198.51.100.23/i', 'p:malware-drop.test/payload/stage2.exe', 'h:urlhaus-host.test'], 1],
    ['urls', 'urls.txt', ['p:login-paypal.phish.test/signin', 'p:sites.shared.test/view/bad', 'u:phish-root.test?id=42'], 1],
    ['phishtank', 'phishtank.csv', ['p:phishtank-csv.test/account/verify', 'p:phishtank-csv.test/other,with,commas'], 1],
    ['phishtank', 'phishtank.json', ['p:phishtank-json.test/login'], 1],
    ['hosts', 'hosts.txt', ['h:ads.hosts.test', 'h:tracker.hosts.test', 'h:evil-hosts.test', 'h:one-per-line.test', 'h:xn--bcher-phish-thb.test'], 5],
  ])('%s (%s)', (format, file, keys, skipped) => {
    const parsed = parseFeed(format, fixture(file));
    expect([...parsed.keys]).toEqual(keys);
    expect(parsed.skipped).toBe(skipped);
  });

  it.each<[FeedFormat, string]>([
    ['phishtank', '{"url": "https://a.test/"}'],
    ['phishtank', '[{"url": "https://a.test/"'],
    ['phishtank', 'id,link\n1,https://a.test/'],
    ['urlhaus', '"1","2","http://a.test/x'],
  ])('%s refuses a body not in its format: %s', (format, body) => {
    expect(() => parseFeed(format, body)).toThrow(FeedFormatError);
  });

  it.each<FeedFormat>(['urlhaus', 'urls', 'phishtank', 'hosts'])('an empty %s body lists nothing', (format) => {
    const body = format === 'phishtank' ? '[]' : '';
    expect(parseFeed(format, body).keys.size).toBe(0);
  });

  it('reads CRLF line ends and a URL with a fragment', () => {
    expect([...parseFeed('urls', 'https://a.test/x#frag\r\nhttps://b.test/\r\n').keys]).toEqual(['p:a.test/x', 'h:b.test']);
  });
});
