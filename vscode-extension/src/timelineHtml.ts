import type { CompileStats } from './accyProtocol';
import { formatSeconds } from './statsFormat';

/** The statuses a kernel has at a stage, each with its bar colour (a theme colour of the editor). */
export const STATUS_COLOURS: Record<string, string> = {
  compiled: 'var(--vscode-charts-blue, #3794ff)',
  reused: 'var(--vscode-charts-green, #89d185)',
  stored: 'var(--vscode-charts-purple, #b180d7)',
  failed: 'var(--vscode-charts-red, #f14c4c)',
};
const OTHER_COLOUR = 'var(--vscode-disabledForeground, #888888)';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function bar(label: string, status: string, seconds: number, longest: number): string {
  // A bar never vanishes: a reused kernel's stage may take no time at all.
  const width = longest > 0 ? Math.max(0.5, (seconds / longest) * 100) : 0.5;
  const colour = STATUS_COLOURS[status] ?? OTHER_COLOUR;
  return (
    `<div class="row" title="${escapeHtml(`${label}: ${status}, ${formatSeconds(seconds)}`)}">` +
    `<span class="label">${escapeHtml(label)}</span>` +
    `<span class="track"><span class="bar status-${escapeHtml(status)}" ` +
    `style="width: ${width.toFixed(1)}%; background: ${colour}"></span></span>` +
    `<span class="value">${escapeHtml(status)} · ${formatSeconds(seconds)}</span></div>`
  );
}

/**
 * The stage view's timeline: per stage a bar of its time, and under it a
 * bar per kernel coloured by what the stage did with it (compiled, reused,
 * stored, failed). The server records time per stage, not per kernel, so a
 * kernel's bar is its stage's time where the stage compiled it and none
 * where it was reused or stored. Plain HTML and CSS: the policy allows no
 * script and nothing from outside.
 */
export function timelineHtml(stats: CompileStats, documentName: string): string {
  const longest = Math.max(0, ...stats.stages.map((s) => s.seconds));
  const sections = stats.stages.map((stage) => {
    const kernels = stage.kernels.map((k) =>
      bar(k.kernel, k.status, k.status === 'compiled' ? stage.seconds : 0, longest),
    );
    return (
      `<section><h2>${escapeHtml(stage.stage)}</h2>` +
      bar('stage', stage.status, stage.seconds, longest) +
      kernels.join('') +
      `</section>`
    );
  });
  const legend = Object.entries(STATUS_COLOURS)
    .map(([status, colour]) => `<span class="key"><span class="swatch" style="background: ${colour}"></span>${status}</span>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Accy timeline</title>
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
h1 { font-size: 1.1em; } h2 { font-size: 1em; margin: 0.8em 0 0.2em; }
.row { display: flex; align-items: center; gap: 0.5em; margin: 2px 0; }
.label { width: 10em; overflow: hidden; text-overflow: ellipsis; }
.track { flex: 1; height: 0.9em; background: var(--vscode-editorWidget-background, #2222); }
.bar { display: block; height: 100%; }
.value { width: 11em; font-variant-numeric: tabular-nums; }
.key { margin-right: 1em; } .swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em; }
</style>
</head>
<body>
<h1>${escapeHtml(documentName)}: version ${stats.version} compiled in ${formatSeconds(stats.compileSeconds)}</h1>
<p class="legend">${legend}</p>
${sections.join('\n')}
</body>
</html>
`;
}
