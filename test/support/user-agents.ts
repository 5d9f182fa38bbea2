/**
 * Real user agents, with what the smart-link rules make of them (device, os, browser: the
 * classifier of scan analytics, src/smart-links/settings/agent-traits.ts). Shared by the smart-link
 * e2e files and the hot-path benchmark.
 */
export const USER_AGENTS = {
  iphone: {
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    traits: { device: 'mobile', os: 'ios', browser: 'safari' },
  },
  ipad: {
    ua: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    traits: { device: 'tablet', os: 'ios', browser: 'safari' },
  },
  pixel: {
    ua: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
    traits: { device: 'mobile', os: 'android', browser: 'chrome' },
  },
  samsung: {
    ua: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
    traits: { device: 'mobile', os: 'android', browser: 'samsung' },
  },
  windowsEdge: {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
    traits: { device: 'desktop', os: 'windows', browser: 'edge' },
  },
  macFirefox: {
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:126.0) Gecko/20100101 Firefox/126.0',
    traits: { device: 'desktop', os: 'macos', browser: 'firefox' },
  },
  linuxChrome: {
    ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    traits: { device: 'desktop', os: 'linux', browser: 'chrome' },
  },
  slackbot: {
    ua: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    traits: null,
  },
} as const;

export type UserAgentName = keyof typeof USER_AGENTS;
