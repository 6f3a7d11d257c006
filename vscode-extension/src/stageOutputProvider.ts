import * as vscode from 'vscode';
import { isStageName, requestStageOutput, type RequestSender, type StageName } from './accyProtocol';

/** The scheme of the read-only documents that show a stage's IR. */
export const STAGE_OUTPUT_SCHEME = 'accy-stage';

export interface StageOutputTarget {
  /** The URI of the .accy document, as the server knows it. */
  source: string;
  kernel: string;
  stage: StageName;
}

/**
 * `accy-stage:/KERNEL.STAGE.mlir?SOURCE`: the name shows in the editor's
 * tab and its .mlir extension selects an MLIR grammar where one is installed.
 */
export function stageOutputUri(target: StageOutputTarget): vscode.Uri {
  return vscode.Uri.from({
    scheme: STAGE_OUTPUT_SCHEME,
    path: `/${target.kernel}.${target.stage}.mlir`,
    query: target.source,
  });
}

export function parseStageOutputUri(uri: vscode.Uri): StageOutputTarget | undefined {
  if (uri.scheme !== STAGE_OUTPUT_SCHEME) return undefined;
  const match = /^\/([A-Za-z_][A-Za-z0-9_]*)\.([a-z]+)\.mlir$/.exec(uri.path);
  if (!match || !isStageName(match[2]) || uri.query === '') return undefined;
  return { source: uri.query, kernel: match[1], stage: match[2] };
}

/**
 * Serves stage-output documents from `accy/stageOutput`. The extension
 * calls sourceCompiled() when the server has published a compile of a
 * source, and every open stage document of that source reloads.
 */
export class StageOutputProvider implements vscode.TextDocumentContentProvider {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  /** Stage documents served and not closed yet, by their URI string. */
  private readonly open = new Map<string, vscode.Uri>();

  /** `sender` answers undefined while no server runs. */
  constructor(private readonly sender: () => RequestSender | undefined) {}

  async provideTextDocumentContent(
    uri: vscode.Uri,
    token?: vscode.CancellationToken,
  ): Promise<string> {
    const target = parseStageOutputUri(uri);
    if (target === undefined) return `// not an Accy stage output: ${uri.toString()}\n`;
    this.open.set(uri.toString(), uri);
    const sender = this.sender();
    if (sender === undefined)
      return `// ${target.stage} of kernel ${target.kernel}: accy-lsp is not running\n`;
    try {
      return await requestStageOutput(sender, target.source, target.kernel, target.stage, token);
    } catch (error) {
      // The document stays open and tells why; the next compile reloads it.
      const message = error instanceof Error ? error.message : String(error);
      return `// ${target.stage} of kernel ${target.kernel}: ${message}\n`;
    }
  }

  /** Reloads the open stage documents of `source` (a URI string). */
  sourceCompiled(source: string): void {
    for (const uri of this.open.values())
      if (parseStageOutputUri(uri)?.source === source) this.changes.fire(uri);
  }

  /** Reloads every open stage document (after a server restart). */
  refreshAll(): void {
    for (const uri of this.open.values()) this.changes.fire(uri);
  }

  /** Called when the editor closes a document: it no longer needs updates. */
  forget(uri: vscode.Uri): void {
    this.open.delete(uri.toString());
  }

  dispose(): void {
    this.changes.dispose();
  }
}
