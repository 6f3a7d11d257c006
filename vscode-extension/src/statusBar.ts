import * as vscode from 'vscode';
import type { CompileStats } from './accyProtocol';
import { formatSeconds, formatStageTable } from './statsFormat';

export type ServerState = 'starting' | 'running' | 'stopped' | 'not found';

const ICONS: Record<ServerState, string> = {
  starting: '$(loading~spin)',
  running: '$(check)',
  stopped: '$(debug-stop)',
  'not found': '$(warning)',
};

/**
 * The status-bar item: the server's state and the last compile's total
 * time; its tooltip holds the per-stage table of that compile.
 */
export class ServerStatusItem implements vscode.Disposable {
  private state: ServerState = 'starting';
  private detail = '';
  private lastCompile: CompileStats | undefined;

  constructor(private readonly item: vscode.StatusBarItem) {
    item.name = 'Accy language server';
    item.command = 'accy.showStageFingerprints';
    this.render();
    item.show();
  }

  /** `detail` says more in the tooltip (where the server came from, why it stopped). */
  setState(state: ServerState, detail = ''): void {
    this.state = state;
    this.detail = detail;
    if (state !== 'running') this.lastCompile = undefined;
    this.render();
  }

  showCompile(stats: CompileStats): void {
    this.lastCompile = stats;
    this.render();
  }

  private render(): void {
    const time =
      this.state === 'running' && this.lastCompile
        ? ` ${formatSeconds(this.lastCompile.compileSeconds)}`
        : '';
    this.item.text = `${ICONS[this.state]} Accy${time}`;
    const tooltip = new vscode.MarkdownString(`accy-lsp: ${this.state}`);
    if (this.detail !== '') tooltip.appendMarkdown(` (${this.detail})`);
    if (this.lastCompile) tooltip.appendMarkdown(`\n\n${formatStageTable(this.lastCompile)}`);
    this.item.tooltip = tooltip;
    this.item.backgroundColor =
      this.state === 'not found' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
