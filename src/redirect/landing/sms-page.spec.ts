import { ALL_HOSTILE, asParsed, HOSTILE, hrefs, parsePage, text } from './__fixtures__/hostile-page';
import { smsHref, smsPage } from './sms-page';

describe('smsPage', () => {
  it('shows the number, the message as a bubble, "Send message", and both in fields to copy', () => {
    const page = parsePage(smsPage({ number: '+1 (555) 010-9999', message: 'JOIN us & save 10%\nReply STOP to end' }));
    expect([text(page, '.kind'), text(page, 'h1'), text(page, '.bubble'), text(page, 'a.primary')]).toEqual([
      'Text message',
      '+1 (555) 010-9999',
      'JOIN us & save 10%\nReply STOP to end',
      'Send message',
    ]);
    expect(hrefs(page)).toEqual(['sms:+15550109999?body=JOIN%20us%20%26%20save%2010%25%0AReply%20STOP%20to%20end']);
    expect(page('input#number').val()).toBe('+1 (555) 010-9999');
    expect(page('textarea#message').val()).toBe('JOIN us & save 10%\nReply STOP to end');
  });

  it.each([
    ['no message', { number: '12345' }, 'sms:12345'],
    ['a blank message', { number: '12345', message: '  ' }, 'sms:12345'],
    [
      'emoji and non-Latin text, as UTF-8',
      { number: '+971 50', message: 'مرحبا 👋' },
      'sms:+97150?body=%D9%85%D8%B1%D8%AD%D8%A8%D8%A7%20%F0%9F%91%8B',
    ],
    ['URI delimiters', { number: '1234', message: '?body=x&to=#y' }, 'sms:1234?body=%3Fbody%3Dx%26to%3D%23y'],
  ])('smsHref: %s', (_case, content, href) => {
    expect(smsHref(content)).toBe(href);
  });

  it('keeps a message that starts with a line break whole in its field', () => {
    expect(parsePage(smsPage({ number: '123', message: '\nP.S.' }))('textarea').val()).toBe('\nP.S.');
  });

  it('escapes hostile text and keeps 1,000-character messages whole', () => {
    const html = smsPage({ number: HOSTILE.quotes, message: `${ALL_HOSTILE}${HOSTILE.long}` });
    expect(html).not.toMatch(/<script>|<img/);
    const page = parsePage(html);
    expect(text(page, 'h1')).toBe(HOSTILE.quotes);
    expect(text(page, '.bubble')).toBe(asParsed(`${ALL_HOSTILE}${HOSTILE.long}`));
    expect(page('textarea').val()).toBe(asParsed(`${ALL_HOSTILE}${HOSTILE.long}`));
    expect(page('textarea').attr('rows')).toBe('4');
  });
});
