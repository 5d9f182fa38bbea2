import { createLru } from '../../infra/cache/lru';
import { classifyUserAgent } from '../../scans/user-agent-class';
import type { RuleBrowser, RuleDevice, RuleOs } from './link-settings';

/** A visitor's device, OS and browser in the vocabulary of rule conditions (device null: a bot or unknown kind). */
export interface AgentTraits {
  device: RuleDevice | null;
  os: RuleOs;
  browser: RuleBrowser;
}

const OS_OF: Record<string, RuleOs> = {
  ios: 'ios',
  android: 'android',
  windows: 'windows',
  'mac os': 'macos',
  macos: 'macos',
  linux: 'linux',
  ubuntu: 'linux',
  debian: 'linux',
  fedora: 'linux',
  'linux mint': 'linux',
  arch: 'linux',
};

const BROWSER_OF: Record<string, RuleBrowser> = {
  chrome: 'chrome',
  'mobile chrome': 'chrome',
  'chrome webview': 'chrome',
  chromium: 'chrome',
  safari: 'safari',
  'mobile safari': 'safari',
  firefox: 'firefox',
  'mobile firefox': 'firefox',
  edge: 'edge',
  'samsung internet': 'samsung',
};

/** The traits of a user agent, by the classifier of scan analytics (user-agent-class.ts). */
export function agentTraits(userAgent: string | null, isBot: boolean): AgentTraits {
  const { device, os, browser } = classifyUserAgent(userAgent, isBot);
  return {
    device: device === 'mobile' || device === 'tablet' || device === 'desktop' ? device : null,
    os: OS_OF[os.toLowerCase()] ?? 'other',
    browser: BROWSER_OF[browser.toLowerCase()] ?? 'other',
  };
}

/**
 * Traits by user agent string, remembered: parsing one costs tens of microseconds, and a
 * campaign's scans come from a few thousand distinct agents.
 */
export class AgentTraitsCache {
  private readonly known = createLru<AgentTraits>({ max: 20_000, ttl: 3_600_000 });

  of(userAgent: string | null, isBot: boolean): AgentTraits {
    if (userAgent === null || isBot) return agentTraits(userAgent, isBot);
    let traits = this.known.get(userAgent);
    if (traits === undefined) {
      traits = agentTraits(userAgent, false);
      this.known.set(userAgent, traits);
    }
    return traits;
  }
}
