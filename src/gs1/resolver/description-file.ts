import { PRIMARY_KEYS } from '../syntax/ai-dictionary';
import { GS1_VOCABULARY } from '../links/link-types';

/**
 * The resolver description file served at `/.well-known/gs1resolver` (GS1-Conformant Resolver
 * Standard 1.2, section 6): where this resolver's root is, which primary keys it answers for,
 * and which link-type namespace it knows.
 */
export function resolverDescription(resolverRoot: string, name: string) {
  return {
    name,
    resolverRoot,
    supportedLinkType: [{ namespace: GS1_VOCABULARY, prefix: 'gs1:', profile: 'https://ref.gs1.org/voc/?show=linktypes' }],
    supportedPrimaryKeys: PRIMARY_KEYS.map((key) => key.ai),
    linkTypeDefaultCanBeLinkset: true,
    supportsLanguageVariants: true,
    supportsSemanticInterpretation: false,
    validatesAIcombinations: true,
  };
}
