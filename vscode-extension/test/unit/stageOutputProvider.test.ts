import { describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import type { RequestSender } from '../../src/accyProtocol';
import {
  parseStageOutputUri,
  StageOutputProvider,
  stageOutputUri,
} from '../../src/stageOutputProvider';

const source = 'file:///work/kernels/mlp%20v2.accy';

/** A server that answers accy/stageOutput from a table and records the requests. */
function fakeServer(outputs: Record<string, string>) {
  const requests: { method: string; params: unknown; extra: unknown[] }[] = [];
  const sender: RequestSender = {
    async sendRequest<R>(method: string, params: unknown, ...extra: unknown[]): Promise<R> {
      requests.push({ method, params, extra });
      const { kernel, stage } = params as { kernel: string; stage: string };
      const text = outputs[`${kernel}.${stage}`];
      if (text === undefined) throw new Error(`no kernel '${kernel}' in the ${stage} product`);
      return { text } as R;
    },
  };
  return { sender, requests };
}

describe('stage output URIs', () => {
  it('round-trip through their string form, as the editor stores them', () => {
    const uri = stageOutputUri({ source, kernel: 'mlp', stage: 'dispatch' });
    expect(uri.toString()).toMatch(/^accy-stage:\/mlp\.dispatch\.mlir\?/);
    expect(parseStageOutputUri(vscode.Uri.parse(uri.toString()))).toEqual({
      source,
      kernel: 'mlp',
      stage: 'dispatch',
    });
  });

  it('reject other schemes, unknown stages and a missing source', () => {
    for (const text of [
      'file:///mlp.dispatch.mlir?file:///a.accy',
      'accy-stage:/mlp.lowering.mlir?file:///a.accy',
      'accy-stage:/mlp.dispatch.mlir',
      'accy-stage:/mlp.dispatch.txt?file:///a.accy',
    ])
      expect(parseStageOutputUri(vscode.Uri.parse(text))).toBeUndefined();
  });
});

describe('StageOutputProvider', () => {
  it('asks the server for the kernel and stage of the document', async () => {
    const server = fakeServer({ 'mlp.tensor': 'module @mlp {}' });
    const provider = new StageOutputProvider(() => server.sender);
    const text = await provider.provideTextDocumentContent(
      stageOutputUri({ source, kernel: 'mlp', stage: 'tensor' }),
    );
    expect(text).toBe('module @mlp {}');
    expect(server.requests).toEqual([
      // No undefined token after the params: JSON-RPC would send [params, null].
      { method: 'accy/stageOutput', params: { uri: source, kernel: 'mlp', stage: 'tensor' }, extra: [] },
    ]);
  });

  it('shows a server error in the document instead of failing', async () => {
    const provider = new StageOutputProvider(() => fakeServer({}).sender);
    const text = await provider.provideTextDocumentContent(
      stageOutputUri({ source, kernel: 'gone', stage: 'memory' }),
    );
    expect(text).toBe("// memory of kernel gone: no kernel 'gone' in the memory product\n");
  });

  it('says so when no server runs', async () => {
    const provider = new StageOutputProvider(() => undefined);
    const text = await provider.provideTextDocumentContent(
      stageOutputUri({ source, kernel: 'mlp', stage: 'kernel' }),
    );
    expect(text).toContain('accy-lsp is not running');
  });

  it('reloads the open documents of a source when it compiles, and only those', async () => {
    const provider = new StageOutputProvider(() => fakeServer({ 'a.tensor': '', 'b.target': '', 'c.tensor': '' }).sender);
    const a = stageOutputUri({ source, kernel: 'a', stage: 'tensor' });
    const b = stageOutputUri({ source, kernel: 'b', stage: 'target' });
    const other = stageOutputUri({ source: 'file:///other.accy', kernel: 'c', stage: 'tensor' });
    for (const uri of [a, b, other]) await provider.provideTextDocumentContent(uri);
    const reloaded: string[] = [];
    provider.onDidChange((uri) => reloaded.push(uri.toString()));

    provider.sourceCompiled(source);
    expect(reloaded.sort()).toEqual([a.toString(), b.toString()].sort());

    reloaded.length = 0;
    provider.forget(vscode.Uri.parse(a.toString()));
    provider.sourceCompiled(source);
    expect(reloaded).toEqual([b.toString()]);

    reloaded.length = 0;
    provider.refreshAll();
    expect(reloaded.sort()).toEqual([b.toString(), other.toString()].sort());
  });

  it('serves the new text after a reload', async () => {
    const outputs = { 'mlp.semantic': 'version 1' };
    const provider = new StageOutputProvider(() => fakeServer(outputs).sender);
    const uri = stageOutputUri({ source, kernel: 'mlp', stage: 'semantic' });
    expect(await provider.provideTextDocumentContent(uri)).toBe('version 1');
    outputs['mlp.semantic'] = 'version 2';
    const reloaded = new Promise<string>((resolve) =>
      provider.onDidChange((changed) => resolve(provider.provideTextDocumentContent(changed))),
    );
    provider.sourceCompiled(source);
    expect(await reloaded).toBe('version 2');
  });
});
