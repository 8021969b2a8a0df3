import { describe, expect, it } from 'vitest';
import { type HostState, pickStarts, retryBackoffMs } from '../../../src/jobs/host-pacing.js';

const NOW = 1_000_000;
const url = (key: string, host: string, notBefore = 0) => ({ key, host, notBefore });

describe('pickStarts', () => {
  it('starts one page per host per delay, and wakes when the next may start', () => {
    const hosts = new Map<string, HostState>();
    const waiting = [url('a1', 'a'), url('a2', 'a'), url('b1', 'b')];
    expect(pickStarts(waiting, hosts, NOW, () => 250, 4)).toEqual({ starts: ['a1', 'b1'], wakeAt: NOW + 250 });
    expect(hosts.get('a')).toEqual({ nextStart: NOW + 250, open: 1 });
    expect(pickStarts([url('a2', 'a')], hosts, NOW + 250, () => 250, 4).starts).toEqual(['a2']);
  });

  it('keeps at most `concurrency` pages of a host open, and then waits on a report, not the clock', () => {
    const hosts = new Map<string, HostState>([['a', { nextStart: 0, open: 2 }]]);
    expect(pickStarts([url('a3', 'a')], hosts, NOW, () => 0, 2)).toEqual({ starts: [] });
  });

  it('starts up to `concurrency` pages of a host at once when its delay is lifted (0)', () => {
    const hosts = new Map<string, HostState>();
    const waiting = [url('a1', 'a'), url('a2', 'a'), url('a3', 'a')];
    expect(pickStarts(waiting, hosts, NOW, () => 0, 2)).toEqual({ starts: ['a1', 'a2'] });
  });

  it('holds a retry until its backoff has passed', () => {
    const hosts = new Map<string, HostState>();
    expect(pickStarts([url('a1', 'a', NOW + 2000)], hosts, NOW, () => 0, 4)).toEqual({ starts: [], wakeAt: NOW + 2000 });
  });

  it('takes the delay of each host (Crawl-delay)', () => {
    const hosts = new Map<string, HostState>();
    pickStarts([url('a1', 'a'), url('b1', 'b')], hosts, NOW, (host) => (host === 'a' ? 5000 : 100), 4);
    expect(hosts.get('a')!.nextStart).toBe(NOW + 5000);
    expect(hosts.get('b')!.nextStart).toBe(NOW + 100);
  });
});

describe('retryBackoffMs', () => {
  it('waits longer each time', () => {
    expect(retryBackoffMs(1)).toBe(2000);
    expect(retryBackoffMs(2)).toBe(8000);
  });
});
