import { createRequire } from 'node:module';

/**
 * GS1 Digital Link compression (GS1 Digital Link: Compression), through the GS1 toolkit that
 * `digital-link.js` ships (its `lib/GS1DigitalLinkCompressionPrototype`, Apache-2.0). Only the
 * toolkit is loaded, not the package's grammar validator (bench/README.md, "GS1 Digital Link
 * syntax": about 7 ms per validation, too slow for the resolver; our parser does the checking).
 */
interface Gs1Toolkit {
  compressGS1DigitalLink(
    uri: string,
    useShortText: boolean,
    uriStem: string,
    uncompressedPrimary: boolean,
    useOptimisations: boolean,
    compressOtherKeyValuePairs: boolean,
  ): string;
  decompressGS1DigitalLink(compressedUri: string, useShortText: boolean, uriStem: string): string;
}

let toolkit: Gs1Toolkit | undefined;
function gs1Toolkit(): Gs1Toolkit {
  if (!toolkit) {
    const Toolkit = createRequire(__filename)('digital-link.js/lib/GS1DigitalLinkCompressionPrototype/GS1DigitalLinkToolkit') as new () => Gs1Toolkit;
    toolkit = new Toolkit();
  }
  return toolkit;
}

/** The stem the toolkit is given: any origin serves, only the path and query it returns are used. */
const STEM = 'https://gs1.invalid';

/** A compressed path is one segment of base64url characters (no AI pair: those start with digits and a slash). */
const COMPRESSED_SEGMENT = /^\/[A-Za-z0-9_-]{8,}\/?$/;

export const looksCompressed = (path: string): boolean => COMPRESSED_SEGMENT.test(path);

/**
 * The uncompressed path and query (`/01/…/10/…?17=…`) of a compressed path segment and its query,
 * or null when it does not decompress.
 */
export function decompressPath(path: string, query: string): { path: string; query: string } | null {
  try {
    const segment = path.replace(/\/$/, '');
    const uri = new URL(gs1Toolkit().decompressGS1DigitalLink(`${STEM}${segment}${query ? `?${query}` : ''}`, false, STEM));
    return { path: uri.pathname, query: uri.search.slice(1) };
  } catch {
    // The toolkit throws on anything that is not a compressed Digital Link: the caller answers 400.
    return null;
  }
}

/** The compressed form of a Digital Link path and query, under `stem` (origin and prefix). */
export function compressPath(stem: string, pathAndQuery: string): string {
  const compressed = gs1Toolkit().compressGS1DigitalLink(`${STEM}${pathAndQuery}`, false, STEM, false, true, true);
  return `${stem}${compressed.slice(STEM.length)}`;
}
