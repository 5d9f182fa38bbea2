import type { WebhookEventId } from '../common/ids/resource-ids';
import { loadAppConfig } from '../config/app-config';
import { RecentEventBodies } from './recent-event-bodies';

describe('RecentEventBodies', () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` as WebhookEventId;

  it('keeps the bodies this instance wrote, for its own worker', () => {
    const bodies = new RecentEventBodies(loadAppConfig({}));
    bodies.keep([
      { id: id(1), body: '{"a":1}' },
      { id: id(2), body: '' },
    ]);
    expect(bodies.get(id(1))).toBe('{"a":1}');
    expect(bodies.get(id(2))).toBe('');
    expect(bodies.get(id(3))).toBeUndefined();
  });

  it('keeps nothing in an api process, which delivers nothing (ROLE=api)', () => {
    const bodies = new RecentEventBodies(loadAppConfig({ ROLE: 'api' }));
    bodies.keep([{ id: id(1), body: '{}' }]);
    expect(bodies.get(id(1))).toBeUndefined();
  });

  it('holds at most 32 Mi characters: the oldest bodies go first', () => {
    const bodies = new RecentEventBodies(loadAppConfig({}));
    const body = 'x'.repeat(4 * 1024 * 1024);
    bodies.keep(Array.from({ length: 9 }, (_, n) => ({ id: id(n), body })));
    expect(bodies.get(id(0))).toBeUndefined();
    expect(bodies.get(id(8))).toBe(body);
    expect(Array.from({ length: 9 }, (_, n) => bodies.get(id(n)) !== undefined).filter(Boolean)).toHaveLength(8);
  });
});
