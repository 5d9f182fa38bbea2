/**
 * The time as the app's schedules see it (webhook retries, 24-hour windows, disabling a failing
 * endpoint). Injected so that tests move it forward instead of waiting; the app uses the system's.
 */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => new Date() };
