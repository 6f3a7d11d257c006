import * as vscode from 'vscode';
import { requestStats } from './accyProtocol';
import { showStageFingerprints } from './fingerprintsCommand';
import { activeAccyDocument } from './kernelPicker';
import { LanguageServer } from './languageServer';
import { SERVER_PROCESS_SETTINGS } from './settings';
import { showStageOutput } from './stageOutputCommand';
import { STAGE_OUTPUT_SCHEME, StageOutputProvider } from './stageOutputProvider';
import { ServerStatusItem } from './statusBar';
import { TimelineView } from './timelineView';

let server: LanguageServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const status = new ServerStatusItem(
    vscode.window.createStatusBarItem('accy.server', vscode.StatusBarAlignment.Left, 0),
  );
  const fingerprints = vscode.window.createOutputChannel('Accy Fingerprints');
  const stageOutputs = new StageOutputProvider(() => server?.running);
  const timeline = new TimelineView(() => server?.running);

  /** Shows the last compile of the active editor's document, if it is the one at `uri`. */
  const showCompileOf = (uri: string): void => {
    const client = server?.running;
    if (client === undefined || vscode.window.activeTextEditor?.document.uri.toString() !== uri)
      return;
    // A closed or replaced document has no stats any more; the next compile updates the item.
    requestStats(client, uri).then((stats) => status.showCompile(stats), () => undefined);
  };
  const onCompiled = (uri: string): void => {
    stageOutputs.sourceCompiled(uri);
    timeline.sourceCompiled(uri);
    showCompileOf(uri);
  };
  server = new LanguageServer(status, onCompiled, () => stageOutputs.refreshAll());

  const withClient = (
    run: (client: NonNullable<LanguageServer['running']>, ...args: unknown[]) => Promise<void>,
  ) => {
    return async (...args: unknown[]) => {
      const client = server?.running;
      if (client === undefined) {
        void vscode.window.showWarningMessage('Accy: the language server is not running.');
        return;
      }
      try {
        await run(client, ...args);
      } catch (error) {
        void vscode.window.showErrorMessage(
          `Accy: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    };
  };

  context.subscriptions.push(
    status,
    fingerprints,
    stageOutputs,
    timeline,
    server,
    vscode.workspace.registerTextDocumentContentProvider(STAGE_OUTPUT_SCHEME, stageOutputs),
    vscode.workspace.onDidCloseTextDocument((document) => stageOutputs.forget(document.uri)),
    vscode.commands.registerCommand('accy.showStageOutput', withClient(showStageOutput)),
    vscode.commands.registerCommand(
      'accy.showStageFingerprints',
      withClient((client) => showStageFingerprints(client, fingerprints)),
    ),
    vscode.commands.registerCommand(
      'accy.showTimeline',
      withClient(async (_client, uri) => {
        // From a code lens: its document; from the palette: the active one.
        const source = typeof uri === 'string' ? uri : activeAccyDocument()?.uri.toString();
        if (source !== undefined) await timeline.show(source);
      }),
    ),
    vscode.commands.registerCommand('accy.restartServer', () => server?.restart()),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor?.document.languageId === 'accy') showCompileOf(editor.document.uri.toString());
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void server?.retryIfNotFound()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (SERVER_PROCESS_SETTINGS.some((setting) => event.affectsConfiguration(setting)))
        void server?.restart();
    }),
  );
  await server.start();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
  server = undefined;
}
