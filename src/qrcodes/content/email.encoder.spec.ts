import { type EmailContent, encodeEmail } from './email.encoder';

describe('encodeEmail', () => {
  test.each<[string, EmailContent, string]>([
    ['address only', { to: 'hello@example.com' }, 'mailto:hello@example.com'],
    ['subject only', { to: 'a@example.com', subject: 'Hi' }, 'mailto:a@example.com?subject=Hi'],
    ['body only', { to: 'a@example.com', body: 'Hi' }, 'mailto:a@example.com?body=Hi'],
    ['subject and body', { to: 'a@example.com', subject: 'S', body: 'B' }, 'mailto:a@example.com?subject=S&body=B'],
    [
      'spaces, & ? = + # % encoded',
      { to: 'a@example.com', subject: 'Q&A? a+b=c #1 100%' },
      'mailto:a@example.com?subject=Q%26A%3F%20a%2Bb%3Dc%20%231%20100%25',
    ],
    [
      'body line breaks become %0D%0A',
      { to: 'a@example.com', body: 'Line 1\nLine 2\r\nLine 3' },
      'mailto:a@example.com?body=Line%201%0D%0ALine%202%0D%0ALine%203',
    ],
    [
      'non-ASCII as UTF-8 percent-encoding',
      { to: 'a@example.com', subject: 'Grüße 👋' },
      'mailto:a@example.com?subject=Gr%C3%BC%C3%9Fe%20%F0%9F%91%8B',
    ],
    ['address characters allowed in mailto kept', { to: "first.o'neil+tag@example.com" }, "mailto:first.o'neil+tag@example.com"],
    ['address characters that would end the address encoded', { to: 'a&b?c#d%e@example.com' }, 'mailto:a%26b%3Fc%23d%25e@example.com'],
  ])('%s', (_case, content, expected) => {
    expect(encodeEmail(content)).toBe(expected);
  });
});
