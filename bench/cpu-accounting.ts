import { readdirSync, readFileSync } from 'node:fs';

/** Linux clock ticks per second (USER_HZ), as /proc reports CPU times. */
const TICKS_PER_SECOND = 100;

export interface CpuSample {
  /** this process (the servers under test), seconds */
  self: number;
  /** of which in the kernel (system calls: mostly the sockets' reads and writes), seconds */
  selfSystem: number;
  /** this process's finished children (the load generator), seconds */
  children: number;
  postgres: number;
  redis: number;
  /** a helper process that runs beside the servers (the bench's webhook receiver), seconds */
  helper: number;
}

/**
 * CPU seconds used so far by this process, its reaped children, every PostgreSQL and Redis process,
 * and the helper process `helperPid` (from /proc).
 */
export function sampleCpu(helperPid?: number): CpuSample {
  const usage = process.cpuUsage();
  const own = readFileSync('/proc/self/stat', 'utf8');
  const ownFields = own.slice(own.lastIndexOf(')') + 2).split(' ');
  const sample: CpuSample = {
    self: (usage.user + usage.system) / 1e6,
    selfSystem: usage.system / 1e6,
    children: (Number(ownFields[13]) + Number(ownFields[14])) / TICKS_PER_SECOND,
    postgres: 0,
    redis: 0,
    helper: 0,
  };
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // the process ended between the listing and the read
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const server = Number(pid) === helperPid ? 'helper' : name === 'postgres' ? 'postgres' : name === 'redis-server' ? 'redis' : null;
    if (!server) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    sample[server] += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  }
  return sample;
}

/** CPU microseconds per request of each part between two samples. */
export function cpuPerRequest(before: CpuSample, after: CpuSample, requests: number): string {
  const perRequest = (name: keyof CpuSample) => ((1e6 * (after[name] - before[name])) / Math.max(1, requests)).toFixed(0);
  const part = (name: keyof CpuSample) => `${name} ${perRequest(name)}`;
  const helper = after.helper > 0 ? `, ${part('helper')}` : '';
  return `CPU µs/request: ${part('self')} (system ${perRequest('selfSystem')}), ${part('children')}, ${part('postgres')}, ${part('redis')}${helper}`;
}
