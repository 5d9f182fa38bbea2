import { Histogram } from 'prom-client';
import { LabelledCount, RequestDurations } from './hot-path-metrics';

const BUCKETS = [0.001, 0.005, 0.01, 0.1, 1];
let names = 0;
const uniqueName = (what: string) => `hot_path_metrics_spec_${what}_${++names}`;

/** A metric's values as prom-client exposes them, the metric's own name taken out of each line's. */
async function exposed(metric: { get(): Promise<{ name: string; values: Array<{ metricName?: string; labels: object; value: number }> }> }) {
  const { name, values } = await metric.get();
  return values.map((value) => ({ line: (value.metricName ?? name).slice(name.length), labels: value.labels, value: value.value }));
}

describe('RequestDurations', () => {
  it('exposes what a prom-client histogram observed one by one exposes, across series and past a full buffer', async () => {
    const durations = new RequestDurations({ name: uniqueName('buffered'), help: 'h', buckets: BUCKETS });
    const direct = new Histogram({ name: uniqueName('direct'), help: 'h', labelNames: ['method', 'route', 'status'], buckets: BUCKETS });
    const series: Array<[string, string, number]> = [
      ['GET', '/r/:shortCode', 302],
      ['HEAD', '/r/:shortCode', 302],
      ['GET', '/r/:shortCode', 404],
      ['POST', '/api/v1/qrcodes', 201],
    ];
    // More than the buffer holds (8,192): a full buffer is added at once, nothing is lost.
    for (let i = 0; i < 20_000; i++) {
      const [method, route, status] = series[i % series.length];
      const seconds = ((i * 7919) % 2000) / 1000;
      durations.observe(method, route, status, seconds);
      direct.observe({ method, route, status: String(status) }, seconds);
    }
    const buffered = await exposed(durations.histogram);
    expect(buffered).toEqual(await exposed(direct));
    expect(buffered).toContainEqual({ line: '_count', labels: { method: 'GET', route: '/r/:shortCode', status: '302' }, value: 5000 });
  });

  it('adds what was observed every second without a read', () => {
    jest.useFakeTimers();
    try {
      const durations = new RequestDurations({ name: uniqueName('timer'), help: 'h', buckets: BUCKETS });
      const flush = jest.spyOn(durations, 'flush');
      durations.observe('GET', '/r/:shortCode', 302, 0.002);
      jest.advanceTimersByTime(999);
      expect(flush).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(flush).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('LabelledCount', () => {
  it('counts by label value, every count in the next read and none twice', async () => {
    const redirects = new LabelledCount({ name: uniqueName('outcomes'), help: 'h', labelName: 'outcome' });
    for (let i = 0; i < 5; i++) redirects.inc('redirected');
    redirects.inc('not_found');
    expect(await exposed(redirects.counter)).toEqual([
      { line: '', labels: { outcome: 'redirected' }, value: 5 },
      { line: '', labels: { outcome: 'not_found' }, value: 1 },
    ]);
    redirects.inc('not_found');
    expect(await exposed(redirects.counter)).toEqual([
      { line: '', labels: { outcome: 'redirected' }, value: 5 },
      { line: '', labels: { outcome: 'not_found' }, value: 2 },
    ]);
  });
});
