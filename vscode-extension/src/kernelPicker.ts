import * as vscode from 'vscode';
import { requestKernelNames, type RequestSender } from './accyProtocol';

/** The active editor's .accy document, or a message saying one is needed. */
export function activeAccyDocument(): vscode.TextDocument | undefined {
  const document = vscode.window.activeTextEditor?.document;
  if (document?.languageId === 'accy') return document;
  void vscode.window.showInformationMessage('Open an .accy file first.');
  return undefined;
}

/** Asks for one of the document's kernels; a single kernel is taken without asking. */
export async function pickKernel(
  sender: RequestSender,
  document: vscode.TextDocument,
): Promise<string | undefined> {
  const kernels = await requestKernelNames(sender, document.uri.toString());
  if (kernels.length === 0) {
    void vscode.window.showInformationMessage('This file declares no kernel.');
    return undefined;
  }
  if (kernels.length === 1) return kernels[0];
  return vscode.window.showQuickPick(kernels, { placeHolder: 'Kernel' });
}
