/**
 * App links of a branded domain (docs/sharing.md#app-links-on-branded-domains): the apps that may
 * open the domain's https links, as iOS and Android read them from the domain itself. Pure.
 */
export interface AppLinks {
  apple?: { app_ids: string[]; paths?: string[] };
  android?: { package_name: string; sha256_cert_fingerprints: string[] };
}

/** An app's id: the 10-character Team ID, a dot, the bundle id. */
export const APPLE_APP_ID = /^[A-Z0-9]{10}\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;
/** A path pattern of Apple's components: `/`-rooted, `*` and `?` allowed; `NOT ` in front excludes. */
export const APPLE_PATH = /^(NOT )?\/[\x21-\x7e]*$/;
/** A Java package name of at least two segments. */
export const ANDROID_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
/** A signing certificate's SHA-256, as `keytool` prints it: 32 colon-separated hex pairs. */
export const SHA256_FINGERPRINT = /^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$/;

/** The paths opened in the app when an owner names none: the short links. */
export const DEFAULT_APP_PATHS = ['/r/*'];

/** `/.well-known/apple-app-site-association`: Apple's current `applinks` form (components, not the old `paths`). */
export function appleAppSiteAssociation(links: AppLinks): object | null {
  if (!links.apple) return null;
  const components = (links.apple.paths ?? DEFAULT_APP_PATHS).map((path) =>
    path.startsWith('NOT ') ? { '/': path.slice(4), exclude: true } : { '/': path },
  );
  return { applinks: { details: [{ appIDs: links.apple.app_ids, components }] } };
}

/** `/.well-known/assetlinks.json`: the Digital Asset Links statement that lets the Android app handle the domain's links. */
export function assetLinks(links: AppLinks): object[] | null {
  if (!links.android) return null;
  return [
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: {
        namespace: 'android_app',
        package_name: links.android.package_name,
        sha256_cert_fingerprints: links.android.sha256_cert_fingerprints.map((print) => print.toUpperCase()),
      },
    },
  ];
}
