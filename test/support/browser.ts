import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`), driven by playwright-core: no browser download needed. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-background-networking', ...extraArgs],
    // Without a UTF-8 locale (a bare environment) Chromium names a download with a non-ASCII name "download".
    env: { ...process.env, LANG: process.env.LANG || 'C.UTF-8' },
  });
}

/** A phone (an iPhone 14's viewport, touch) and a desktop window. */
export const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
} satisfies Record<string, BrowserContextOptions>;
export type ViewportName = keyof typeof VIEWPORTS;

/** Starts the app's HTTP server on a loopback port (the browser needs a real socket) and returns its origin. */
export async function listenOnLoopback(app: NestFastifyApplication): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}
