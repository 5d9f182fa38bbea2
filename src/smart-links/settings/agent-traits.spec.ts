import { AgentTraitsCache, agentTraits } from './agent-traits';

const CHROMEBOOK = 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const UBUNTU_FIREFOX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const WINDOWS_OPERA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1';
const ANDROID_EDGE =
  'Mozilla/5.0 (Linux; Android 10; HD1913) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36 EdgA/124.0.2478.64';
const ANDROID_TABLET = 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
// iPadOS 13+ asks for desktop sites with the Mac's user agent: it cannot be told from a Mac.
const IPADOS_DESKTOP_MODE = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

describe('agentTraits', () => {
  test.each<[string, string | null, boolean, ReturnType<typeof agentTraits>]>([
    ['a Chromebook: other OS', CHROMEBOOK, false, { device: 'desktop', os: 'other', browser: 'chrome' }],
    ['Ubuntu: linux', UBUNTU_FIREFOX, false, { device: 'desktop', os: 'linux', browser: 'firefox' }],
    ['Opera: other browser', WINDOWS_OPERA, false, { device: 'desktop', os: 'windows', browser: 'other' }],
    ['Chrome on iOS: chrome', IPHONE_CHROME, false, { device: 'mobile', os: 'ios', browser: 'chrome' }],
    ['Edge on Android: edge', ANDROID_EDGE, false, { device: 'mobile', os: 'android', browser: 'edge' }],
    ['an Android tablet', ANDROID_TABLET, false, { device: 'tablet', os: 'android', browser: 'chrome' }],
    ['iPadOS in desktop mode: a Mac', IPADOS_DESKTOP_MODE, false, { device: 'desktop', os: 'macos', browser: 'safari' }],
    ['a bot: no device, though its OS is known', UBUNTU_FIREFOX, true, { device: null, os: 'linux', browser: 'firefox' }],
    ['no user agent', null, false, { device: null, os: 'other', browser: 'other' }],
    ['an empty user agent', '', false, { device: null, os: 'other', browser: 'other' }],
    ['gibberish: a desktop of unknown kind', 'qr-scanner/1.0', false, { device: 'desktop', os: 'other', browser: 'other' }],
  ])('%s', (_case, userAgent, isBot, traits) => {
    expect(agentTraits(userAgent, isBot)).toEqual(traits);
  });
});

describe('AgentTraitsCache', () => {
  test('answers as agentTraits, remembered per user agent, and never remembers a bot verdict', () => {
    const cache = new AgentTraitsCache();
    const first = cache.of(ANDROID_EDGE, false);
    expect(first).toEqual(agentTraits(ANDROID_EDGE, false));
    expect(cache.of(ANDROID_EDGE, false)).toBe(first);
    expect(cache.of(ANDROID_EDGE, true).device).toBeNull();
    expect(cache.of(ANDROID_EDGE, false).device).toBe('mobile');
    expect(cache.of(null, false)).toEqual({ device: null, os: 'other', browser: 'other' });
  });
});
