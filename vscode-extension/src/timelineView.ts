import * as vscode from 'vscode';
import { requestStats, type RequestSender } from './accyProtocol';
import { timelineHtml } from './timelineHtml';

/**
 * "Accy: Show Timeline": one webview beside the source with the last
 * compile of one document, drawn again after each of its compiles.
 */
export class TimelineView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private source: string | undefined;
  /** Answers to older requests are dropped: compiles finish in order, answers may not. */
  private requests = 0;

  constructor(private readonly sender: () => RequestSender | undefined) {}

  async show(source: string): Promise<void> {
    this.source = source;
    if (this.panel === undefined) {
      this.panel = vscode.window.createWebviewPanel(
        'accy.timeline',
        'Accy Timeline',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: false },
      );
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.source = undefined;
      });
    } else {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    await this.update();
  }

  /** The document at `uri` has a new compile. */
  sourceCompiled(uri: string): void {
    if (this.panel !== undefined && uri === this.source)
      this.update().catch(() => undefined); // a closed document: the next compile draws again
  }

  private async update(): Promise<void> {
    const sender = this.sender();
    const source = this.source;
    if (sender === undefined || source === undefined) return;
    const request = ++this.requests;
    const stats = await requestStats(sender, source);
    if (this.panel === undefined || request !== this.requests) return;
    const name = decodeURIComponent(source.split('/').pop() ?? source);
    this.panel.title = `Accy Timeline: ${name}`;
    this.panel.webview.html = timelineHtml(stats, name);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
