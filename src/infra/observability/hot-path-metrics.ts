import { Counter, Histogram } from 'prom-client';

/** Buffered observations are added to their metric at least this often (and whenever metrics are read). */
const FLUSH_INTERVAL_MS = 1000;
/** Observations buffered at most: a full buffer is added at once. */
const MAX_BUFFERED = 8192;

/**
 * Metrics updated on every redirect, kept in prom-client (one registry, one exposition) but not
 * updated request by request: prom-client's observe and labelled inc hash their labels and search
 * their series on every call, and interleaved with the work of answering requests that cost a
 * redirect several microseconds (bench/README.md, "A scan's cost"). Here a request appends a
 * number or two; prom-client gets the updates in one loop when metrics are read (the metric's
 * collect hook), every second, and whenever a buffer is full, so a scrape always sees every update
 * made before it.
 */
abstract class Buffered {
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  abstract flush(): void;
}

/** A histogram by method, route and status: http_request_duration_seconds. */
export class RequestDurations extends Buffered {
  readonly histogram: Histogram;
  /** Series ids by route, method and status: nested maps, so an observation builds no key string. */
  private readonly ids = new Map<string, Map<string, Map<number, number>>>();
  private readonly labels: Array<{ method: string; route: string; status: string }> = [];
  private readonly series = new Uint32Array(MAX_BUFFERED);
  private readonly seconds = new Float64Array(MAX_BUFFERED);
  private size = 0;

  constructor(config: { name: string; help: string; buckets: number[] }) {
    super();
    const flush = () => this.flush();
    this.histogram = new Histogram({ ...config, labelNames: ['method', 'route', 'status'], collect: flush });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    this.series[this.size] = this.idOf(method, route, status);
    this.seconds[this.size] = seconds;
    if (++this.size === MAX_BUFFERED) this.flush();
  }

  flush(): void {
    for (let i = 0; i < this.size; i++) this.histogram.observe(this.labels[this.series[i]], this.seconds[i]);
    this.size = 0;
  }

  private idOf(method: string, route: string, status: number): number {
    let byMethod = this.ids.get(route);
    if (!byMethod) this.ids.set(route, (byMethod = new Map<string, Map<number, number>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, number>()));
    let id = byStatus.get(status);
    if (id === undefined) {
      id = this.labels.push({ method, route, status: String(status) }) - 1;
      byStatus.set(status, id);
    }
    return id;
  }
}

/** A counter with one label: counts per label value, added to prom-client's counter in one step each. */
export class LabelledCount extends Buffered {
  readonly counter: Counter;
  private readonly labelName: string;
  private readonly counts = new Map<string, number>();

  constructor(config: { name: string; help: string; labelName: string }) {
    super();
    const flush = () => this.flush();
    this.labelName = config.labelName;
    this.counter = new Counter({ name: config.name, help: config.help, labelNames: [config.labelName], collect: flush });
  }

  inc(value: string): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
  }

  flush(): void {
    for (const [value, count] of this.counts) this.counter.inc({ [this.labelName]: value }, count);
    this.counts.clear();
  }
}
