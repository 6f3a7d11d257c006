import { describe, expect, it } from 'vitest';
import type { CompileStats } from '../../src/accyProtocol';
import { STATUS_COLOURS, timelineHtml } from '../../src/timelineHtml';

const stats: CompileStats = {
  version: 3,
  compileSeconds: 0.25,
  compiles: { started: 3, cancelled: 0, finished: 3 },
  cachedProducts: 14,
  debounceMs: 120,
  stages: [
    {
      stage: 'contract',
      status: 'compiled',
      seconds: 0.1,
      passRuns: 8,
      kernels: [
        { kernel: 'mlp', status: 'reused', key: 'k1', fingerprint: '00000000000000a1' },
        { kernel: 'soft<max>', status: 'compiled', key: 'k2', fingerprint: '00000000000000b1' },
      ],
    },
    {
      stage: 'target',
      status: 'compiled',
      seconds: 0.05,
      passRuns: 3,
      kernels: [
        { kernel: 'mlp', status: 'stored', key: 'k3', fingerprint: '00000000000000a2' },
        { kernel: 'soft<max>', status: 'failed', key: 'k4', fingerprint: '00000000000000b2' },
      ],
    },
  ],
};

/** Each bar's row: its tooltip, then the bar's width and colour. */
function bars(html: string): { title: string; width: number; colour: string }[] {
  const re = /<div class="row" title="([^"]*)">.*?style="width: ([\d.]+)%; background: ([^"]*)"/g;
  return [...html.matchAll(re)].map((m) => ({ title: m[1], width: Number(m[2]), colour: m[3] }));
}

describe('timeline HTML', () => {
  const html = timelineHtml(stats, 'two-kernels.accy');

  it('allows no script and nothing from outside', () => {
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline';"`);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/https?:/);
  });

  it('draws per stage a bar, then one per kernel coloured by its status', () => {
    expect(bars(html)).toEqual([
      { title: 'stage: compiled, 100 ms', width: 100, colour: STATUS_COLOURS.compiled },
      { title: 'mlp: reused, 0 ms', width: 0.5, colour: STATUS_COLOURS.reused },
      { title: 'soft&#60;max&#62;: compiled, 100 ms', width: 100, colour: STATUS_COLOURS.compiled },
      { title: 'stage: compiled, 50 ms', width: 50, colour: STATUS_COLOURS.compiled },
      { title: 'mlp: stored, 0 ms', width: 0.5, colour: STATUS_COLOURS.stored },
      { title: 'soft&#60;max&#62;: failed, 0 ms', width: 0.5, colour: STATUS_COLOURS.failed },
    ]);
    expect(html.match(/<h2>[^<]*<\/h2>/g)).toEqual(['<h2>contract</h2>', '<h2>target</h2>']);
  });

  it('says which version it shows, and escapes names', () => {
    expect(html).toContain('two-kernels.accy: version 3 compiled in 250 ms');
    expect(html).not.toContain('soft<max>');
  });

  it('draws an empty compile without dividing by zero', () => {
    const empty = timelineHtml({ ...stats, stages: [{ ...stats.stages[0], seconds: 0, kernels: [] }] }, 'x');
    expect(bars(empty)).toEqual([{ title: 'stage: compiled, 0 ms', width: 0.5, colour: STATUS_COLOURS.compiled }]);
  });
});
