import { createHash } from 'node:crypto';
import { parsePage } from './__fixtures__/hostile-page';
import { landingFile, landingPage, type LandingType } from './landing-page';
import { PAGE_CSP, PAGE_STYLE } from './page-style';

const CONTENT: Record<LandingType, Record<string, unknown>> = {
  vcard: { first_name: 'Ada' },
  event: { title: 'Open day', start: '2030-06-01T18:00:00Z' },
  wifi: { ssid: 'CafeNet', password: 'secret123', encryption: 'WPA' },
  phone: { number: '+49 30 1234567' },
  sms: { number: '+49 30 1234567', message: 'Hi' },
  email: { to: 'a@example.com' },
  geo: { latitude: 1, longitude: 2 },
  text: { text: 'Hello' },
};

describe('landingPage', () => {
  it.each(Object.keys(CONTENT) as LandingType[])('%s: a whole document with the one stylesheet that the CSP allows by hash', (type) => {
    const html = landingPage(type, CONTENT[type], 'AbCd1234');
    const page = parsePage(html);
    expect(page('style').length).toBe(1);
    const style = page('style').text();
    expect(style).toBe(PAGE_STYLE);
    expect(PAGE_CSP).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(page('meta[name="robots"]').attr('content')).toBe('noindex,nofollow');
  });

  it('links the downloads relative to the page, /r/<code> → /r/<code>/contact.vcf', () => {
    expect(landingPage('vcard', CONTENT.vcard, 'AbCd1234')).toContain('href="AbCd1234/contact.vcf"');
    expect(landingPage('event', CONTENT.event, 'AbCd1234')).toContain('href="AbCd1234/event.ics"');
  });
});

describe('PAGE_CSP', () => {
  it('allows nothing to load or run: no script, no third-party origin, no inline style but the hashed sheet', () => {
    expect(PAGE_CSP.split('; ')).toEqual([
      "default-src 'none'",
      expect.stringMatching(/^style-src 'sha256-[A-Za-z0-9+/]{43}='$/),
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ]);
  });
});

describe('landingFile', () => {
  it('offers contact.vcf for vCards and event.ics for events, named after them', () => {
    expect(landingFile('contact.vcf', 'vcard', CONTENT.vcard, 'id', 0)).toMatchObject({
      contentType: 'text/vcard; charset=utf-8',
      contentDisposition: 'attachment; filename="Ada.vcf"',
    });
    expect(landingFile('event.ics', 'event', CONTENT.event, 'id', 0)).toMatchObject({
      contentType: 'text/calendar; charset=utf-8',
      contentDisposition: 'attachment; filename="Open day.ics"',
    });
  });

  it.each([
    ['contact.vcf', 'event'],
    ['event.ics', 'vcard'],
    ['contact.vcf', 'url'],
    ['event.ics', 'text'],
  ] as const)('offers no %s for a %s code', (name, type) => {
    expect(landingFile(name, type, {}, 'id', 0)).toBeNull();
  });
});
