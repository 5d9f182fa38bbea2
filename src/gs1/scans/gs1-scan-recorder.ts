import { Injectable } from '@nestjs/common';
import { GeoLocator, KnownAgents } from '../../scans';
import type { Resolution } from '../resolver/gs1-resolver.service';
import { Gs1ScanBuffer } from './gs1-scan-buffer';

/** What the record step reads of a request (a Fastify request is one). */
export interface Gs1Visit {
  readonly ip: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

const MAX_AGENT_CHARS = 512;

/**
 * The record step of a resolution, with the redirect's rules (src/redirect/scan-recorder.ts): once
 * a GET's redirect of a person has been sent, it is a scan of the item whose link was followed,
 * with the key as requested and the link type. A request without a user agent, or a known bot's,
 * is recorded as a bot (counted apart). HEAD, OPTIONS, linksets, 300s and errors are not scans.
 */
@Injectable()
export class Gs1ScanRecorder {
  private readonly agents = new KnownAgents();

  constructor(
    private readonly buffer: Gs1ScanBuffer,
    private readonly geo: GeoLocator,
  ) {}

  record(visit: Gs1Visit, resolution: Resolution): void {
    const redirected = resolution.answer.redirected;
    const item = resolution.item;
    if (!redirected || !item) return;
    const header = visit.headers['user-agent'];
    const text = (Array.isArray(header) ? header[0] : header) || null;
    const known = text === null ? null : this.agents.recognise(text.slice(0, MAX_AGENT_CHARS));
    const { primary, qualifiers } = redirected.key;
    this.buffer.record({
      itemId: item.id,
      accountId: item.accountId,
      at: Date.now(),
      primaryAi: primary.ai,
      primaryValue: primary.value,
      lot: qualifiers.find((q) => q.ai === '10')?.value ?? null,
      serial: qualifiers.find((q) => q.ai === '21')?.value ?? null,
      linkType: redirected.linkType,
      isBot: known === null || known.isBot,
      country: this.geo.locate(visit).country,
      ip: visit.ip,
      userAgent: known && known.agent,
    });
  }
}
