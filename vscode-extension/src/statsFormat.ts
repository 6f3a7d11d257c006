import type { CompileStats } from './accyProtocol';

export function formatSeconds(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  return `${seconds.toFixed(2)} s`;
}

/** A Markdown table of the compile's stages: status, time and pass runs. */
export function formatStageTable(stats: CompileStats): string {
  const rows = stats.stages.map(
    (s) => `| ${s.stage} | ${s.status} | ${formatSeconds(s.seconds)} | ${s.passRuns} |`,
  );
  return [
    `**accy-lsp**: version ${stats.version} compiled in ${formatSeconds(stats.compileSeconds)}`,
    '',
    '| stage | status | time | pass runs |',
    '| --- | --- | ---: | ---: |',
    ...rows,
    '',
    `compiles: ${stats.compiles.finished} finished, ${stats.compiles.cancelled} cancelled; ` +
      `${stats.cachedProducts} products kept for reuse; debounce ${stats.debounceMs} ms`,
  ].join('\n');
}

/** The kernels the compile reached, in the order of its first stage. */
export function kernelsOf(stats: CompileStats): string[] {
  const names: string[] = [];
  for (const stage of stats.stages)
    for (const record of stage.kernels) if (!names.includes(record.kernel)) names.push(record.kernel);
  return names;
}

/** One kernel's fingerprint, product key and status in every stage, as text. */
export function formatFingerprints(stats: CompileStats, kernel: string): string {
  const lines = [`kernel ${kernel} (version ${stats.version})`, ''];
  const stageWidth = Math.max(...stats.stages.map((s) => s.stage.length), 'stage'.length);
  lines.push(`${'stage'.padEnd(stageWidth)}  fingerprint       status    product key`);
  for (const stage of stats.stages) {
    const record = stage.kernels.find((k) => k.kernel === kernel);
    const fingerprint = record?.fingerprint ?? '-';
    const status = record?.status ?? stage.status;
    lines.push(
      `${stage.stage.padEnd(stageWidth)}  ${fingerprint.padEnd(16)}  ${status.padEnd(8)}  ${record?.key ?? '-'}`,
    );
  }
  return lines.join('\n');
}
