import * as publicApi from './index';
import { checkStyle } from './check-style';
import { resolveErrorCorrectionLevel } from './qr-style';

describe('style public API', () => {
  test('exports checkStyle and everything of the qr-style contract', () => {
    expect(publicApi.checkStyle).toBe(checkStyle);
    expect(publicApi.resolveErrorCorrectionLevel).toBe(resolveErrorCorrectionLevel);
    expect(publicApi.DOT_TYPES).toContain('classy-rounded');
  });

  test('a checked style feeds the contract: a logo without a level resolves to H', () => {
    const result = publicApi.checkStyle({ image: 'data:image/jpeg;base64,/9j/4AAQ' });
    expect(result.ok && publicApi.resolveErrorCorrectionLevel(result.style)).toBe('H');
  });
});
