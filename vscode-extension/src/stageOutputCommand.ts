import * as vscode from 'vscode';
import { STAGES, type RequestSender, type StageName } from './accyProtocol';
import { activeAccyDocument, pickKernel } from './kernelPicker';
import { stageOutputUri } from './stageOutputProvider';

const STAGE_DESCRIPTIONS: Record<StageName, string> = {
  semantic: 'choir ops at source level',
  contract: 'broadcasts explicit, shapes and layouts resolved, constants folded',
  tensor: 'linalg/tensor/arith/math on tensors',
  dispatch: 'dispatch regions with their schedules',
  memory: 'memrefs with memory spaces, buffers planned',
  kernel: 'gpu.module of kernels plus host launch code',
  target: 'lowered for the targets',
};

/**
 * "Accy: Show Stage Output": kernel, then stage, then a read-only IR
 * document beside the source. A kernel's code lens passes its document's
 * URI and the kernel's name: only the stage is asked for then.
 */
export async function showStageOutput(
  sender: RequestSender,
  sourceArg?: unknown,
  kernelArg?: unknown,
): Promise<void> {
  let source: string;
  let kernel: string | undefined;
  if (typeof sourceArg === 'string' && typeof kernelArg === 'string') {
    source = sourceArg;
    kernel = kernelArg;
  } else {
    const document = activeAccyDocument();
    if (document === undefined) return;
    source = document.uri.toString();
    kernel = await pickKernel(sender, document);
    if (kernel === undefined) return;
  }
  const picked = await vscode.window.showQuickPick(
    STAGES.map((stage) => ({ label: stage, description: STAGE_DESCRIPTIONS[stage] })),
    { placeHolder: `Stage of kernel ${kernel}` },
  );
  if (picked === undefined) return;
  const uri = stageOutputUri({
    source,
    kernel,
    stage: picked.label as StageName,
  });
  const output = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(output, { viewColumn: vscode.ViewColumn.Beside, preview: false });
}
