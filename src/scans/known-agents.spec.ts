import { KnownAgents } from './known-agents';

describe('KnownAgents', () => {
  const agents = new KnownAgents();

  it.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      false,
    ],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36', false],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', false],
    ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', true],
    ['WhatsApp/2.23.20.0', true],
    ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', true],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', true],
    ['curl/8.5.0', true],
  ])('%s -> bot %s, the same when asked again (remembered)', (userAgent, bot) => {
    expect(agents.recognise(userAgent)).toEqual({ agent: userAgent, isBot: bot });
    expect(agents.recognise(userAgent).isBot).toBe(bot);
  });

  it('answers an agent seen before with the first copy of it, not the one asked with', () => {
    const first = ['Mozilla/5.0 (X11; Linux x86_64) ', 'Firefox/128.0'].join('');
    const again = ['Mozilla/5.0 (X11; Linux x86_64) Fire', 'fox/128.0'].join('');
    const known = agents.recognise(first);
    expect(agents.recognise(again)).toBe(known);
    expect(agents.recognise(again).agent).toBe(first);
  });
});
