import { ANDROID_PACKAGE, APPLE_APP_ID, APPLE_PATH, appleAppSiteAssociation, assetLinks, SHA256_FINGERPRINT } from './app-links';

const PRINT = Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).padStart(2, '0')).join(':');

describe('app link files', () => {
  it("writes Apple's applinks form, the short links by default, exclusions as exclude", () => {
    expect(appleAppSiteAssociation({ apple: { app_ids: ['ABCDE12345.com.example.app'] } })).toEqual({
      applinks: { details: [{ appIDs: ['ABCDE12345.com.example.app'], components: [{ '/': '/r/*' }] }] },
    });
    expect(appleAppSiteAssociation({ apple: { app_ids: ['ABCDE12345.com.example.app'], paths: ['/r/*', 'NOT /r/promo*'] } })).toEqual({
      applinks: { details: [{ appIDs: ['ABCDE12345.com.example.app'], components: [{ '/': '/r/*' }, { '/': '/r/promo*', exclude: true }] }] },
    });
  });

  it('writes the Digital Asset Links statement with upper-case fingerprints', () => {
    expect(assetLinks({ android: { package_name: 'com.example.app', sha256_cert_fingerprints: [PRINT] } })).toEqual([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: { namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: [PRINT.toUpperCase()] },
      },
    ]);
  });

  it('has no file for a platform not configured', () => {
    expect(appleAppSiteAssociation({ android: { package_name: 'a.b', sha256_cert_fingerprints: [PRINT] } })).toBeNull();
    expect(assetLinks({ apple: { app_ids: ['ABCDE12345.a'] } })).toBeNull();
  });

  it.each([
    [APPLE_APP_ID, 'ABCDE12345.com.example.app', true],
    [APPLE_APP_ID, 'abcde12345.com.example.app', false],
    [APPLE_APP_ID, 'ABCDE1234.com.example', false],
    [APPLE_PATH, '/r/*', true],
    [APPLE_PATH, 'NOT /private/*', true],
    [APPLE_PATH, 'r/*', false],
    [ANDROID_PACKAGE, 'com.example.app', true],
    [ANDROID_PACKAGE, 'example', false],
    [ANDROID_PACKAGE, 'com.1example', false],
    [SHA256_FINGERPRINT, PRINT, true],
    [SHA256_FINGERPRINT, PRINT.slice(3), false],
  ])('%s accepts %s: %s', (pattern, value, accepted) => {
    expect(pattern.test(value)).toBe(accepted);
  });
});
