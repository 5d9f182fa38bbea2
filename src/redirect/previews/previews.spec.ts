import { load } from 'cheerio';
import { isbot } from 'isbot';
import { isPreviewBot, PREVIEW_BOTS } from './preview-bots';
import { previewPageHtml } from './preview-page';

describe('isPreviewBot', () => {
  it.each(PREVIEW_BOTS.map((bot) => [bot.name, bot.sample]))('knows %s', (_name, sample) => {
    expect(isPreviewBot(sample)).toBe(true);
    // Only agents already known as bots are asked: every sample must be one for isbot too.
    expect(isbot(sample)).toBe(true);
  });

  it.each([
    [
      'Safari on iPhone',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    ],
    ['Chrome on Android', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'],
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['curl', 'curl/8.5.0'],
  ])('leaves %s alone', (_name, agent) => {
    expect(isPreviewBot(agent)).toBe(false);
  });
});

describe('previewPageHtml', () => {
  const preview = {
    title: 'Spring "menu" <now>',
    description: 'Three courses & a view',
    imageUrl: 'https://cdn.example.com/card.png?a=1&b=2',
    url: 'https://qr.example.com/r/abc1234',
    ownImage: true,
  };

  it('carries Open Graph and Twitter tags with every value escaped', () => {
    const $ = load(previewPageHtml(preview));
    const content = (selector: string) => $(selector).attr('content');
    expect(content('meta[property="og:title"]')).toBe('Spring "menu" <now>');
    expect(content('meta[property="og:description"]')).toBe('Three courses & a view');
    expect(content('meta[property="og:image"]')).toBe('https://cdn.example.com/card.png?a=1&b=2');
    expect(content('meta[property="og:url"]')).toBe('https://qr.example.com/r/abc1234');
    expect(content('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(previewPageHtml(preview)).not.toContain('<now>');
  });

  it('asks for a small card around the square QR image and leaves out a missing description', () => {
    const $ = load(previewPageHtml({ ...preview, description: null, ownImage: false }));
    expect($('meta[name="twitter:card"]').attr('content')).toBe('summary');
    expect($('meta[property="og:description"]')).toHaveLength(0);
  });
});
