import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  State,
  vsdiag,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { compileMiddleware } from './compileMiddleware';
import { RestartPolicy } from './restartPolicy';
import { serverArguments } from './serverArguments';
import { defaultInstallPrefixes, discoverServer } from './serverDiscovery';
import { ServerNotFoundNotice } from './serverNotFound';
import { readSettings, SETTINGS_SECTION } from './settings';
import type { ServerStatusItem } from './statusBar';

/**
 * Owns the accy-lsp client: finds the server, starts, stops and restarts it,
 * and keeps the status bar in step with its state.
 */
export class LanguageServer implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly notFound = new ServerNotFoundNotice();

  constructor(
    private readonly status: ServerStatusItem,
    private readonly onCompiled: (uri: string) => void,
    private readonly onStarted: () => void,
  ) {}

  /** The running client, for requests; undefined while none runs. */
  get running(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  async start(): Promise<void> {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const settings = readSettings(vscode.workspace.getConfiguration(SETTINGS_SECTION));
    const discovery = discoverServer({
      configuredPath: settings.serverPath,
      pathVariable: process.env.PATH,
      installPrefixes: defaultInstallPrefixes(process.env, os.homedir()),
      workspaceFolders: folders,
    });
    if (!discovery.found) {
      this.status.setState('not found', discovery.reason);
      this.notFound.show(discovery.reason);
      return;
    }
    // No `transport`: with TransportKind.stdio the client would add a
    // `--stdio` argument, which accy-lsp refuses; without one it talks over
    // the process's stdin and stdout all the same.
    const server: ServerOptions = {
      command: discovery.path,
      args: serverArguments(settings, folders[0]),
    };
    const restarts = new RestartPolicy();
    // Whether the current server process has answered initialize.
    let ran = false;
    const options: LanguageClientOptions = {
      documentSelector: [{ language: 'accy' }],
      middleware: {
        ...compileMiddleware(this.onCompiled),
        // The server publishes each compile's diagnostics, and also answers
        // textDocument/diagnostic: the client would show every diagnostic
        // twice (a pulled and a published copy). The published ones, which
        // come as each compile finishes, are the ones shown.
        provideDiagnostics: () => ({ kind: vsdiag.DocumentDiagnosticReportKind.full, items: [] }),
      },
      errorHandler: {
        // As the client's default: a few unreadable messages are tolerated.
        error: (_error, _message, count) => ({
          action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        }),
        closed: () => {
          const decision = restarts.closed(ran);
          return decision.restart
            ? { action: CloseAction.Restart, message: decision.note, handled: true }
            : { action: CloseAction.DoNotRestart, message: decision.message, handled: !decision.notify };
        },
      },
    };
    // The id 'accy' makes the client follow the setting accy.trace.server.
    const client = new LanguageClient('accy', 'Accy Language Server', server, options);
    this.client = client;
    client.onDidChangeState(({ newState }) => {
      if (this.client !== client) return;
      ran = newState === State.Running;
      if (newState === State.Running) {
        this.status.setState('running', `${discovery.path}, from the ${discovery.source}`);
        this.onStarted();
      } else if (newState === State.Starting) this.status.setState('starting');
      else this.status.setState('stopped', 'see the output channel Accy Language Server');
    });
    this.status.setState('starting');
    try {
      await client.start();
    } catch (error) {
      // The client has shown the error and logged it; the state shows "stopped".
      this.status.setState('stopped', error instanceof Error ? error.message : String(error));
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    try {
      await client.dispose(2000);
    } catch {
      // A server that died already cannot be stopped; nothing is left to do.
    }
    this.status.setState('stopped');
  }

  /**
   * Looks for the server again when none was found (after the workspace
   * folders changed: a new folder may hold a build tree), without showing
   * the not-found message a second time.
   */
  async retryIfNotFound(): Promise<void> {
    if (this.client === undefined) await this.start();
  }

  /** "Accy: Restart Server", and any change of a setting the server process depends on. */
  async restart(): Promise<void> {
    this.notFound.reset();
    await this.stop();
    await this.start();
  }

  dispose(): void {
    void this.stop();
  }
}
