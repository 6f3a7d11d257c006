import { describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import type { CompileStats } from '../../src/accyProtocol';
import { formatFingerprints, formatSeconds, formatStageTable, kernelsOf } from '../../src/statsFormat';
import { ServerStatusItem } from '../../src/statusBar';

const stats: CompileStats = {
  version: 4,
  compileSeconds: 1.2345,
  compiles: { started: 5, cancelled: 1, finished: 4 },
  cachedProducts: 12,
  debounceMs: 120,
  stages: [
    {
      stage: 'semantic',
      status: 'compiled',
      seconds: 0.0042,
      passRuns: 0,
      kernels: [
        { kernel: 'mlp', status: 'compiled', key: 'k-sem-mlp', fingerprint: '00000000000000a1' },
        { kernel: 'softmax', status: 'compiled', key: 'k-sem-sm', fingerprint: '00000000000000b1' },
      ],
    },
    {
      stage: 'contract',
      status: 'reused',
      seconds: 0.5,
      passRuns: 8,
      kernels: [{ kernel: 'softmax', status: 'reused', key: 'k-con-sm', fingerprint: '00000000000000b2' }],
    },
  ],
};

describe('stats formatting', () => {
  it('writes times in ms below a second, else in seconds', () => {
    expect(formatSeconds(0.0042)).toBe('4 ms');
    expect(formatSeconds(1.2345)).toBe('1.23 s');
  });

  it('makes one table row per stage', () => {
    const table = formatStageTable(stats);
    expect(table).toContain('version 4 compiled in 1.23 s');
    expect(table).toContain('| semantic | compiled | 4 ms | 0 |');
    expect(table).toContain('| contract | reused | 500 ms | 8 |');
    expect(table).toContain('4 finished, 1 cancelled; 12 products kept for reuse; debounce 120 ms');
  });

  it('lists each kernel once, in the order of the stages', () => {
    expect(kernelsOf(stats)).toEqual(['mlp', 'softmax']);
  });

  it('shows one kernel per stage, with a dash where a stage has no record of it', () => {
    const lines = formatFingerprints(stats, 'mlp').split('\n');
    expect(lines[0]).toBe('kernel mlp (version 4)');
    expect(lines[3]).toMatch(/^semantic\s+00000000000000a1\s+compiled\s+k-sem-mlp$/);
    expect(lines[4]).toMatch(/^contract\s+-\s+reused\s+-$/);
  });
});

describe('ServerStatusItem', () => {
  function item() {
    return {
      text: '',
      tooltip: undefined as unknown,
      backgroundColor: undefined as unknown,
      shown: false,
      show() {
        this.shown = true;
      },
      dispose() {},
    };
  }

  it('shows the state, then the last compile time with the stage table in the tooltip', () => {
    const bar = item();
    const status = new ServerStatusItem(bar as unknown as vscode.StatusBarItem);
    expect(bar.shown).toBe(true);
    expect(bar.text).toBe('$(loading~spin) Accy');
    status.setState('running', '/opt/accy-lsp, from the PATH');
    status.showCompile(stats);
    expect(bar.text).toBe('$(check) Accy 1.23 s');
    const tooltip = (bar.tooltip as vscode.MarkdownString).value;
    expect(tooltip).toContain('accy-lsp: running (/opt/accy-lsp, from the PATH)');
    expect(tooltip).toContain('| contract | reused | 500 ms | 8 |');
  });

  it('forgets the compile when the server stops and warns when it is missing', () => {
    const bar = item();
    const status = new ServerStatusItem(bar as unknown as vscode.StatusBarItem);
    status.setState('running');
    status.showCompile(stats);
    status.setState('stopped');
    expect(bar.text).toBe('$(debug-stop) Accy');
    expect((bar.tooltip as vscode.MarkdownString).value).not.toContain('| stage |');
    status.setState('not found', 'no accy-lsp on PATH');
    expect(bar.text).toBe('$(warning) Accy');
    expect(bar.backgroundColor).toBeInstanceOf(vscode.ThemeColor);
  });
});
