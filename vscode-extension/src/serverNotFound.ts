import * as vscode from 'vscode';

/**
 * The one message shown when no server is found: it says where the
 * extension looked and opens the setting. Shown once until the settings
 * change or the user restarts the server, so a missing binary never
 * becomes a stream of errors.
 */
export class ServerNotFoundNotice {
  private shown = false;

  show(reason: string): void {
    if (this.shown) return;
    this.shown = true;
    void vscode.window
      .showWarningMessage(
        `Accy: accy-lsp was not found, so .accy files get no diagnostics. ${reason}`,
        'Open Settings',
      )
      .then((choice) => {
        if (choice === 'Open Settings')
          void vscode.commands.executeCommand('workbench.action.openSettings', 'accy.server.path');
      });
  }

  /** After a settings change or an explicit restart, a new failure is news again. */
  reset(): void {
    this.shown = false;
  }
}
