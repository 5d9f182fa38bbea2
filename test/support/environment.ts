import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Tests that need something the environment may lack run only when it is there, and are reported
 * by jest as skipped otherwise (never as passed). CI sets DATABASE_URL and REDIS_URL, installs
 * Chromium and builds first, and fails on any skipped test.
 */
export const HAS_POSTGRES = Boolean(process.env.DATABASE_URL);
export const HAS_REDIS = Boolean(process.env.REDIS_URL);

/** Debian's Chromium, driven by playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking'];
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** The built service (`npm run build`), for tests that start it as the container image does. */
export const REPOSITORY_ROOT = join(__dirname, '..', '..');
export const HAS_BUILD = existsSync(join(REPOSITORY_ROOT, 'dist', 'main.js'));

/** Debian's caddy (2.6.2), for the tests of the public entry (docker/Caddyfile). */
export const CADDY = '/usr/bin/caddy';
export const HAS_CADDY = existsSync(CADDY);

/** Whether a command is on the PATH (tools the README's shell blocks call, such as jq and openssl). */
export const hasCommand = (name: string): boolean =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)));

export const itWhen = (condition: boolean) => (condition ? it : it.skip);
export const describeWhen = (condition: boolean) => (condition ? describe : describe.skip);
