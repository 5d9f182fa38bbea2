import { Inject, Injectable } from '@nestjs/common';
import type { DomainId } from '../../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { resolverDescription } from './description-file';
import { Gs1ItemLookup, type KeptItem } from './gs1-item-lookup';
import { CORS_HEADERS, type ResolverAnswer, resolverAnswer, type ResolverQuestion, syntaxErrorAnswer } from './resolver-answer';
import { type ResolverPath, readResolverPath } from './resolver-path';

/** A request to the resolver, as the redirect host hands it over. */
export interface ResolverRequestFacts {
  method: string;
  /** the path below the resolver's root, as requested (percent-encoded) */
  path: string;
  /** the raw query string, without `?` */
  query: string;
  accept: string | undefined;
  acceptLanguage: string | undefined;
  /** the branded domain the request came to; null: the default redirect host */
  domainId: DomainId | null;
  /** the resolver's root as the client reached it (`https://id.brand.example`; on the default host REDIRECT_URL and the prefix) */
  root: string;
}

/** A resolution answered, and what the host needs to record it as a scan once sent. */
export interface Resolution {
  answer: ResolverAnswer;
  /** the item whose link a person was sent to (recorded as a scan of it) */
  item?: KeptItem['item'];
}

/**
 * The GS1-Conformant resolver (docs/gs1-digital-link.md#the-resolver): reads the Digital Link,
 * finds its item levels (memory first), decides. Synchronous when the items are in memory.
 */
@Injectable()
export class Gs1Resolver {
  constructor(
    private readonly lookup: Gs1ItemLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The default redirect host's resolver root (`https://qr.example.com/gs1`). */
  get defaultRoot(): string {
    return `${this.config.redirectUrl}${this.config.gs1PathPrefix}`;
  }

  resolve(facts: ResolverRequestFacts): Resolution | Promise<Resolution> {
    const target = readResolverPath(facts.path, facts.query);
    if (!target.ok) return { answer: syntaxErrorAnswer(target.message) };
    const question = questionOf(facts);
    if (facts.method === 'OPTIONS') return { answer: resolverAnswer(question, target.value, []) };
    const levels = this.lookup.levels(facts.domainId, target.value.key);
    if (levels instanceof Promise) return levels.then((found) => answered(question, target.value, found));
    return answered(question, target.value, levels);
  }

  /** `/.well-known/gs1resolver` of a host whose resolver root is `root`. */
  description(root: string): ResolverAnswer {
    return {
      status: 200,
      headers: { ...CORS_HEADERS, 'content-type': 'application/json' },
      json: resolverDescription(root, 'QR code service GS1 resolver'),
    };
  }
}

function answered(question: ResolverQuestion, target: ResolverPath, found: KeptItem[]): Resolution {
  const answer = resolverAnswer(
    question,
    target,
    found.map((kept) => kept.level),
  );
  return answer.redirected ? { answer, item: found[0].item } : { answer };
}

function questionOf(facts: ResolverRequestFacts): ResolverQuestion {
  const params = new URLSearchParams(facts.query);
  return {
    method: facts.method,
    root: facts.root,
    linkType: params.get('linkType'),
    context: params.get('context'),
    accept: facts.accept,
    acceptLanguage: facts.acceptLanguage,
  };
}
