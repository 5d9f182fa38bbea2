import { Inject, Injectable } from '@nestjs/common';
import type { DomainId } from '../../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { resolverDescription } from './description-file';
import { type FoundLevels, Gs1ItemLookup, type KeptItem } from './gs1-item-lookup';
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

/** Answers remembered at most (then forgotten all at once: made-up serials cannot grow it). */
const MAX_REMEMBERED_ANSWERS = 10_000;

/**
 * The GS1-Conformant resolver (docs/gs1-digital-link.md#the-resolver): reads the Digital Link,
 * finds its item levels (memory first), decides. Synchronous when the items are in memory. An
 * answer is remembered for the same request (method, root, path, query, Accept, Accept-Language)
 * while the item levels it was decided from are unchanged in memory (an item's change drops them).
 */
@Injectable()
export class Gs1Resolver {
  private readonly answers = new Map<string, { levels: FoundLevels; resolution: Resolution }>();

  constructor(
    private readonly lookup: Gs1ItemLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The default redirect host's resolver root (`https://qr.example.com/gs1`). */
  get defaultRoot(): string {
    return `${this.config.redirectUrl}${this.config.gs1PathPrefix}`;
  }

  resolve(facts: ResolverRequestFacts): Resolution | Promise<Resolution> {
    const memo =
      `${facts.method} ${facts.domainId ?? ''} ${facts.root}${facts.path}?${facts.query}\n` + `${facts.accept ?? ''}\n${facts.acceptLanguage ?? ''}`;
    const remembered = this.answers.get(memo);
    if (remembered && this.lookup.unchanged(remembered.levels)) return remembered.resolution;
    const target = readResolverPath(facts.path, facts.query);
    if (!target.ok) return { answer: syntaxErrorAnswer(target.message) };
    const question = questionOf(facts);
    if (facts.method === 'OPTIONS') return { answer: resolverAnswer(question, target.value, []) };
    const remember = (levels: FoundLevels): Resolution => {
      const resolution = answered(question, target.value, levels.items);
      if (this.answers.size >= MAX_REMEMBERED_ANSWERS) this.answers.clear();
      this.answers.set(memo, { levels, resolution });
      return resolution;
    };
    const levels = this.lookup.levels(facts.domainId, target.value.key);
    return levels instanceof Promise ? levels.then(remember) : remember(levels);
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
