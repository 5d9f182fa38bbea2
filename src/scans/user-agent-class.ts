import UAParser from 'ua-parser-js';

export interface UserAgentClass {
  device: 'mobile' | 'tablet' | 'desktop' | 'bot' | 'other';
  os: string;
  browser: string;
}

const MAX_NAME = 32;

/** Device class, OS and browser of a user agent, for scan analytics. */
export function classifyUserAgent(userAgent: string | null, isBot: boolean): UserAgentClass {
  if (!userAgent) return { device: isBot ? 'bot' : 'other', os: 'unknown', browser: 'unknown' };
  const result = new UAParser(userAgent).getResult();
  const type = result.device.type;
  const device = isBot ? 'bot' : type === 'mobile' || type === 'wearable' ? 'mobile' : type === 'tablet' ? 'tablet' : type ? 'other' : 'desktop';
  return {
    device,
    os: (result.os.name ?? 'unknown').slice(0, MAX_NAME),
    browser: (result.browser.name ?? 'unknown').slice(0, MAX_NAME),
  };
}
