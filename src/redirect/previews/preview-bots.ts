/**
 * The link-preview bots of chat and social apps: they fetch a pasted link to draw its card. Each
 * entry is what its maker documents (or sends) in its User-Agent. Search crawlers are not here:
 * they follow the redirect like people. Pure.
 */
export const PREVIEW_BOTS = [
  { name: 'Slack', pattern: /Slackbot-LinkExpanding|Slack-ImgProxy/i, sample: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
  { name: 'WhatsApp', pattern: /WhatsApp\//i, sample: 'WhatsApp/2.23.20.0 A' },
  {
    name: 'iMessage',
    pattern: /facebookexternalhit\/1\.1 Facebot Twitterbot\/1\.0/i,
    sample:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 ' +
      'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  },
  {
    name: 'Facebook',
    pattern: /facebookexternalhit|Facebot|meta-externalagent/i,
    sample: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  },
  { name: 'X', pattern: /Twitterbot/i, sample: 'Twitterbot/1.0' },
  { name: 'LinkedIn', pattern: /LinkedInBot/i, sample: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)' },
  {
    name: 'Microsoft Teams',
    pattern: /SkypeUriPreview|MicrosoftPreview/i,
    sample: 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
  },
  { name: 'Discord', pattern: /Discordbot/i, sample: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)' },
  { name: 'Telegram', pattern: /TelegramBot/i, sample: 'TelegramBot (like TwitterBot)' },
  { name: 'Signal', pattern: /^Signal-/i, sample: 'Signal-Desktop/7.0.0' },
  { name: 'Mastodon', pattern: /Mastodon\//i, sample: 'http.rb/5.1.1 (Mastodon/4.2.1; +https://mastodon.social/)' },
  { name: 'Pinterest', pattern: /Pinterestbot|Pinterest\/0\./i, sample: 'Pinterest/0.2 (+https://www.pinterest.com/bot.html)' },
  { name: 'Reddit', pattern: /redditbot/i, sample: 'Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)' },
  {
    name: 'Google Chat',
    pattern: /Google-PageRenderer|GoogleDocs/i,
    sample: 'Mozilla/5.0 (compatible; Google-PageRenderer Google (+https://developers.google.com/+/web/snippet/))',
  },
] as const;

const ANY_PREVIEW_BOT = new RegExp(PREVIEW_BOTS.map((bot) => bot.pattern.source).join('|'), 'i');

/** Whether a User-Agent is one of the preview bots (asked only of agents already known as bots). */
export function isPreviewBot(userAgent: string): boolean {
  return ANY_PREVIEW_BOT.test(userAgent);
}
