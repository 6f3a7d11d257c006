import * as vscode from 'vscode';
import { requestStats, type RequestSender } from './accyProtocol';
import { activeAccyDocument } from './kernelPicker';
import { formatFingerprints, kernelsOf } from './statsFormat';

/**
 * "Accy: Show Stage Fingerprints": the seven fingerprints of one kernel of
 * the current compile, in the output channel (where they can be compared
 * and copied across edits).
 */
export async function showStageFingerprints(
  sender: RequestSender,
  output: vscode.OutputChannel,
): Promise<void> {
  const document = activeAccyDocument();
  if (document === undefined) return;
  const stats = await requestStats(sender, document.uri.toString());
  const kernels = kernelsOf(stats);
  if (kernels.length === 0) {
    void vscode.window.showInformationMessage(
      'No kernel of this file reached the stages (see the problems of the file).',
    );
    return;
  }
  const kernel =
    kernels.length === 1
      ? kernels[0]
      : await vscode.window.showQuickPick(kernels, { placeHolder: 'Kernel' });
  if (kernel === undefined) return;
  output.appendLine(`${document.uri.fsPath}\n${formatFingerprints(stats, kernel)}\n`);
  output.show(true);
}
