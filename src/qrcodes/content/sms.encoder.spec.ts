import { encodeSms } from './sms.encoder';

describe('encodeSms', () => {
  test.each<[string, string | undefined, string]>([
    ['+1 (555) 010-9999', 'Hello', 'SMSTO:+15550109999:Hello'],
    ['+15550109999', undefined, 'SMSTO:+15550109999:'],
    ['+15550109999', 'Time: 10:30, room; 4', 'SMSTO:+15550109999:Time: 10:30, room; 4'],
    ['+15550109999', 'Grüße 👋 日本', 'SMSTO:+15550109999:Grüße 👋 日本'],
  ])('%s / %p → %s', (number, message, expected) => {
    expect(encodeSms({ number, message })).toBe(expected);
  });
});
