import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { errorShapeProblems, header, requestIdProblems, type HttpAnswer } from '../support/error-shape';
import { auth } from '../support/factories';

export const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
/** The longest a load runs. */
const MAX_LOAD_MS = 60_000;
/** Of each answer's body, this much is kept. */
const KEPT_BODY_CHARS = 4000;
/** An answer slower than this is a hang. */
export const HANG_LIMIT_MS = 2500;

export type Operation = 'create' | 'get' | 'list' | 'image' | 'scan' | 'ready';
type Request = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** One request of the load and what became of it. */
export interface Exchange {
  op: Operation;
  instance: string;
  startedAt: number;
  /** Milliseconds to the answer; Infinity while none came. */
  ms: number;
  /** The answer, or null while none came (a hang, once HANG_LIMIT_MS passed). */
  answer: HttpAnswer | null;
  codeId?: string;
}

/** A code the load uses: its id, and its short code when dynamic. */
export interface LoadCode {
  id: string;
  shortCode?: string;
}

/** Codes the load reads and scans; creates add to it. */
export class CodePool {
  readonly codes: LoadCode[] = [];
  /** Ids of the creates the service acknowledged (201). */
  readonly acknowledged: string[] = [];

  add(code: LoadCode): void {
    this.codes.push(code);
  }

  pick(random: () => number, dynamicOnly = false): LoadCode {
    const codes = dynamicOnly ? this.codes.filter((code) => code.shortCode) : this.codes;
    return codes[Math.floor(random() * codes.length)];
  }
}

/** Deterministic pseudo-random numbers (mulberry32): a load run can be read back from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WEIGHTS: Array<[Operation, number]> = [
  ['scan', 40],
  ['get', 20],
  ['list', 15],
  ['create', 15],
  ['image', 10],
];

function pickOperation(random: () => number): Operation {
  let roll = random() * WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [op, weight] of WEIGHTS) {
    roll -= weight;
    if (roll < 0) return op;
  }
  return 'scan';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A mixed load (creates, gets, lists, images, scans) against app instances, every request timed:
 * a request not answered within HANG_LIMIT_MS is logged as a hang and the worker moves on, so a
 * wedged instance cannot stall the load; an answer that comes later still lands in its record.
 * Readiness is probed beside it.
 */
export class MixedLoad {
  readonly log: Exchange[] = [];
  readonly probes: Exchange[] = [];
  readonly warmUps: Exchange[] = [];
  /** Requests of round(). */
  readonly checks: Exchange[] = [];
  private running = false;
  /** A stuck test must not grow the log without bound: the load ends itself by then. */
  private deadline = 0;
  private readonly loops: Array<Promise<void>> = [];

  constructor(
    private readonly instances: Array<{ name: string; request: Request }>,
    private readonly key: string,
    private readonly pool: CodePool,
    private readonly options: { workersPerInstance: number; probeEveryMs: number; seed: number },
  ) {}

  start(): void {
    this.running = true;
    this.deadline = Date.now() + MAX_LOAD_MS;
    this.instances.forEach((instance, index) => {
      for (let worker = 0; worker < this.options.workersPerInstance; worker++) {
        const random = seededRandom(this.options.seed + index * 1000 + worker);
        this.loops.push(this.work(instance, random));
      }
      this.loops.push(this.probe(instance));
    });
  }

  /**
   * One request of each kind on each instance, one after the other, so that the load starts on
   * warm code paths and caches; logged in `warmUps` (cold requests are not held to the latency bound).
   */
  async warmUp(): Promise<void> {
    const random = seededRandom(this.options.seed);
    for (const instance of this.instances) {
      for (const [op] of WEIGHTS) {
        const { options, codeId } = this.requestFor(op, random);
        const exchange = await this.send(instance, op, options, this.warmUps);
        exchange.codeId = codeId;
      }
    }
  }

  /** Every scan answered with a redirect, by code id. */
  scansServed(): Map<string, number> {
    const served = new Map<string, number>();
    for (const exchange of [...this.warmUps, ...this.log, ...this.checks]) {
      if (exchange.op === 'scan' && exchange.answer?.statusCode === 302) served.set(exchange.codeId!, (served.get(exchange.codeId!) ?? 0) + 1);
    }
    return served;
  }

  /** One request of each kind on each instance at once, logged in `checks`: does everything work right now? */
  async round(): Promise<Exchange[]> {
    const random = seededRandom(this.options.seed + 7);
    const sent = this.instances.flatMap((instance) =>
      WEIGHTS.map(async ([op]) => {
        const { options, codeId } = this.requestFor(op, random);
        const exchange = await this.send(instance, op, options, this.checks);
        exchange.codeId = codeId;
        return exchange;
      }),
    );
    return Promise.all(sent);
  }

  /** Stops issuing requests and waits for the workers (each waits at most HANG_LIMIT_MS for its last answer). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async work(instance: { name: string; request: Request }, random: () => number): Promise<void> {
    while (this.running && Date.now() < this.deadline) {
      const op = pickOperation(random);
      const { options, codeId } = this.requestFor(op, random);
      const exchange = await this.send(instance, op, options, this.log);
      exchange.codeId = codeId;
    }
  }

  private async probe(instance: { name: string; request: Request }): Promise<void> {
    while (this.running && Date.now() < this.deadline) {
      const started = Date.now();
      await this.send(instance, 'ready', { method: 'GET', url: '/health/ready' }, this.probes);
      await sleep(Math.max(0, this.options.probeEveryMs - (Date.now() - started)));
    }
  }

  private requestFor(op: Operation, random: () => number): { options: InjectOptions; codeId?: string } {
    const headers = auth(this.key);
    switch (op) {
      case 'create': {
        const token = randomBytes(6).toString('hex');
        return {
          options: {
            method: 'POST',
            url: '/api/v1/qrcodes',
            headers,
            payload: { type: 'url', name: `load ${token}`, content: { url: `https://example.com/load/${token}` }, is_dynamic: true },
          },
        };
      }
      case 'get': {
        const code = this.pool.pick(random);
        return { options: { method: 'GET', url: `/api/v1/qrcodes/${code.id}`, headers }, codeId: code.id };
      }
      case 'list': {
        const search = random() < 0.3 ? `&search=load` : '';
        return { options: { method: 'GET', url: `/api/v1/qrcodes?limit=5&page=${1 + Math.floor(random() * 3)}${search}`, headers } };
      }
      case 'image': {
        const code = this.pool.pick(random);
        return {
          options: { method: 'GET', url: `/api/v1/qrcodes/${code.id}/image?size=${100 + Math.floor(random() * 200)}`, headers },
          codeId: code.id,
        };
      }
      default: {
        const code = this.pool.pick(random, true);
        return { options: { method: 'GET', url: `/r/${code.shortCode}`, headers: { 'user-agent': IPHONE } }, codeId: code.id };
      }
    }
  }

  private async send(instance: { name: string; request: Request }, op: Operation, options: InjectOptions, log: Exchange[]): Promise<Exchange> {
    const exchange: Exchange = { op, instance: instance.name, startedAt: Date.now(), ms: Infinity, answer: null };
    log.push(exchange);
    const answered = instance
      .request(options)
      .then((res) => {
        exchange.ms = Date.now() - exchange.startedAt;
        // Bodies are kept for the checks and failure messages: an error body is short, an image is not needed.
        exchange.answer = { statusCode: res.statusCode, headers: res.headers, body: res.body.slice(0, KEPT_BODY_CHARS) };
        if (op === 'create' && res.statusCode === 201) {
          const created = res.json<{ id: string; short_code?: string }>();
          this.pool.acknowledged.push(created.id);
          this.pool.add({ id: created.id, shortCode: created.short_code });
        }
      })
      .catch((error: Error) => {
        exchange.ms = Date.now() - exchange.startedAt;
        exchange.answer = { statusCode: 0, headers: {}, body: `request failed: ${error.message}` };
      });
    await Promise.race([answered, sleep(HANG_LIMIT_MS)]);
    return exchange;
  }
}

/** The answer to one request, or null when none comes within HANG_LIMIT_MS (checks after a fault must not hang on a wedged instance). */
export async function answerWithinLimit(request: Request, options: InjectOptions): Promise<LightMyRequestResponse | null> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), HANG_LIMIT_MS)));
  try {
    return await Promise.race([request(options), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** A short line naming an exchange, for failure messages. */
export function describeExchange(exchange: Exchange, zero: number): string {
  const when = `${exchange.startedAt - zero >= 0 ? '+' : ''}${exchange.startedAt - zero} ms`;
  const outcome = exchange.answer
    ? `${exchange.answer.statusCode} after ${exchange.ms} ms: ${exchange.answer.body.slice(0, 160)}`
    : `no answer after ${HANG_LIMIT_MS} ms`;
  return `${exchange.op} on ${exchange.instance} at ${when}: ${outcome}`;
}

const SUCCESS: Record<Operation, number[]> = {
  create: [201],
  get: [200],
  list: [200],
  image: [200, 304],
  scan: [302],
  ready: [200],
};

export function isSuccess(exchange: Exchange): boolean {
  return exchange.answer !== null && SUCCESS[exchange.op].includes(exchange.answer.statusCode);
}

/**
 * Problems with an answer given while the database is away: a success, or a 503 that says so
 * properly (API: the error shape with Retry-After; redirect host: its HTML page; both with the
 * request id).
 */
export function outageAnswerProblems(exchange: Exchange): string[] {
  const answer = exchange.answer;
  if (!answer) return ['no answer'];
  if (isSuccess(exchange)) return [];
  if (answer.statusCode !== 503) return [`status ${answer.statusCode}`];
  if (exchange.op === 'scan') {
    const problems = requestIdProblems(answer);
    if (!/^text\/html/.test(header(answer, 'content-type') ?? '')) problems.push('the 503 of the redirect host is not its HTML page');
    return problems;
  }
  if (exchange.op === 'ready') return requestIdProblems(answer);
  const problems = errorShapeProblems(answer);
  const retryAfter = header(answer, 'retry-after');
  if (retryAfter === undefined || !/^\d+$/.test(retryAfter)) problems.push(`Retry-After ${JSON.stringify(retryAfter)}, expected a number of seconds`);
  return problems;
}
