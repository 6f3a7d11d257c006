// The extension's client-side code paths that need no editor, against the
// real accy-lsp: the settings become its command line, the compile
// middleware sees its diagnostics, the request helpers and the stage-output
// provider get its answers. ACCY_LSP names the binary (ctest sets it).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import {
  requestKernelNames,
  requestStats,
  STAGES,
} from '../../src/accyProtocol';
import { compileMiddleware } from '../../src/compileMiddleware';
import { showStageFingerprints } from '../../src/fingerprintsCommand';
import { editor } from '../fakes/vscode';
import { serverArguments } from '../../src/serverArguments';
import { readSettings } from '../../src/settings';
import { showStageOutput } from '../../src/stageOutputCommand';
import { StageOutputProvider, stageOutputUri } from '../../src/stageOutputProvider';
import { formatFingerprints, formatStageTable, kernelsOf } from '../../src/statsFormat';
import { timelineHtml } from '../../src/timelineHtml';

const server = process.env.ACCY_LSP;
if (!server)
  console.warn('ACCY_LSP is not set: the tests against the real accy-lsp are skipped ' +
    '(ctest sets it; or run ACCY_LSP=build/lsp/accy-lsp npm run test:server)');

const COMMON = `const EPS = 1e-5;
fn norm(x: f32[N, D], g: f32[D], b: f32[D]) -> f32[N, D] {
  let mu = mean(x, axis=1, keepdims=true);
  let var = mean((x - mu) * (x - mu), axis=1, keepdims=true);
  return (x - mu) * rsqrt(var + EPS) * g + b;
}
`;

const MAIN = `import "common.accy";
kernel softmax(x: f32[N, D]) -> f32[N, D] {
  let m = max(x, axis=1, keepdims=true);
  let e = exp(x - m);
  return e / sum(e, axis=1, keepdims=true);
}
kernel layernorm(x: f32[N, D], g: f32[D], b: f32[D]) -> f32[N, D] {
  return norm(x, g, b);
}
`;

/** An operation of the choir dialect (not an attribute such as choir.dims). */
const CHOIR_OP = /= choir\.[a-z_]+/;

interface Published {
  uri: string;
  diagnostics: { message: string; code?: string; source?: string }[];
}

describe.skipIf(!server)('the extension against the real accy-lsp', () => {
  let dir: string;
  let process_: ChildProcess;
  let connection: MessageConnection;
  let mainUri: string;
  let version = 1;
  const compiled: string[] = [];
  const shown: Published[] = [];
  const waiters: (() => void)[] = [];
  const stageOutputs = new StageOutputProvider(() => connection);

  /** Resolves once `count` compiles of `uri` have been reported by the middleware. */
  function compiles(uri: string, count: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no compile ${count} of ${uri}`)), 30_000);
      const check = () => {
        if (compiled.filter((u) => u === uri).length < count) return;
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(check), 1);
        resolve();
      };
      waiters.push(check);
      check();
    });
  }

  function change(uri: string, text: string) {
    connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: ++version },
      contentChanges: [{ text }],
    });
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-vscode-'));
    fs.mkdirSync(path.join(dir, 'include'));
    fs.writeFileSync(path.join(dir, 'include', 'common.accy'), COMMON);
    fs.writeFileSync(path.join(dir, 'main.accy'), MAIN);
    mainUri = vscode.Uri.file(path.join(dir, 'main.accy')).toString();

    // common.accy is found only through the include path of the settings.
    const settings = readSettings({
      get: <T>(section: string, fallback: T) =>
        (({ includePaths: ['include'], targets: ['host'] }) as Record<string, unknown>)[section] as T ?? fallback,
    });
    process_ = spawn(server!, serverArguments(settings, dir), { stdio: ['pipe', 'pipe', 'inherit'] });
    connection = createMessageConnection(
      new StreamMessageReader(process_.stdout!),
      new StreamMessageWriter(process_.stdin!),
    );
    const middleware = compileMiddleware((uri) => {
      compiled.push(uri);
      stageOutputs.sourceCompiled(uri);
      for (const waiter of [...waiters]) waiter();
    });
    connection.onNotification('textDocument/publishDiagnostics', (params: Published) => {
      // The language client hands the middleware a vscode.Uri and the converted diagnostics.
      middleware.handleDiagnostics!(vscode.Uri.parse(params.uri), params.diagnostics as never, (uri, diagnostics) =>
        shown.push({ uri: uri.toString(), diagnostics: diagnostics as never }),
      );
    });
    connection.onRequest('client/registerCapability', () => null);
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    connection.sendNotification('initialized', {});
    connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: mainUri, languageId: 'accy', version, text: MAIN },
    });
    await compiles(mainUri, 1);
  });

  afterAll(async () => {
    if (connection) {
      const exited = once(process_, 'exit');
      await connection.sendRequest('shutdown').catch(() => undefined);
      await connection.sendNotification('exit').catch(() => undefined);
      // The connection may only go once the server has read `exit` and left.
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      connection.dispose();
    }
    if (process_?.exitCode === null) process_.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts with the arguments made from the settings: the import resolves through -I', () => {
    const first = shown.find((p) => p.uri === mainUri);
    expect(first?.diagnostics).toEqual([]);
  });

  it('finds the kernels in source order', async () => {
    expect(await requestKernelNames(connection, mainUri)).toEqual(['softmax', 'layernorm']);
  });

  it('formats the compile stats of all seven stages', async () => {
    const stats = await requestStats(connection, mainUri);
    expect(stats.stages.map((s) => s.stage)).toEqual([...STAGES]);
    expect(kernelsOf(stats)).toEqual(['softmax', 'layernorm']);
    const table = formatStageTable(stats);
    for (const stage of STAGES) expect(table).toMatch(new RegExp(`\\| ${stage} \\| (compiled|reused) \\|`));
    const fingerprints = formatFingerprints(stats, 'layernorm').split('\n').slice(3);
    expect(fingerprints).toHaveLength(7);
    for (const line of fingerprints) expect(line).toMatch(/^[a-z]+\s+[0-9a-f]{16}\s+(compiled|reused)\s+\S+$/);
  });

  it('shows a stage output and reloads it when an edit has compiled', async () => {
    const uri = stageOutputUri({ source: mainUri, kernel: 'softmax', stage: 'semantic' });
    const before = await stageOutputs.provideTextDocumentContent(uri);
    expect(before).toContain('softmax');
    expect(before).toMatch(CHOIR_OP);

    const reloaded = new Promise<string>((resolve) => {
      const subscription = stageOutputs.onDidChange((changed) => {
        if (changed.toString() !== uri.toString()) return;
        subscription.dispose();
        resolve(stageOutputs.provideTextDocumentContent(changed));
      });
    });
    const compilesSoFar = compiled.filter((u) => u === mainUri).length;
    change(mainUri, MAIN.replace('let e = exp(x - m);', 'let e = exp(x - m) * 2.0;'));
    await compiles(mainUri, compilesSoFar + 1);
    const after = await reloaded;
    expect(after).not.toBe(before);
    expect(after).toContain('softmax');
  });

  it('"Show Stage Output": kernel, stage, then the IR document beside the source', async () => {
    editor.reset();
    editor.activeDocument = { uri: vscode.Uri.parse(mainUri), languageId: 'accy' };
    editor.picks = ['layernorm', 'tensor'];
    await showStageOutput(connection);
    expect(editor.quickPicks.map((p) => p.labels)).toEqual([['softmax', 'layernorm'], [...STAGES]]);
    const target = stageOutputUri({ source: mainUri, kernel: 'layernorm', stage: 'tensor' });
    expect(editor.opened).toEqual([target.toString()]);
    // What the editor then shows in it: the tensor stage has no choir ops left.
    const text = await stageOutputs.provideTextDocumentContent(vscode.Uri.parse(editor.opened[0]));
    expect(text).toContain('linalg.');
    expect(text).not.toMatch(CHOIR_OP);
  });

  it("a kernel's code lens runs \"Show Stage Output\" with its document and kernel", async () => {
    editor.reset();
    // The lens works whichever editor is active.
    editor.activeDocument = undefined;
    const lenses = await connection.sendRequest<
      { command: { title: string; command: string; arguments: unknown[] } }[]
    >('textDocument/codeLens', { textDocument: { uri: mainUri } });
    const lens = lenses.find(
      (l) => l.command.command === 'accy.showStageOutput' && l.command.arguments[1] === 'layernorm',
    )!;
    expect(lens.command.title).toBe('Show stage output');
    editor.picks = ['dispatch'];
    await showStageOutput(connection, ...lens.command.arguments);
    expect(editor.quickPicks.map((p) => p.labels)).toEqual([[...STAGES]]);
    const target = stageOutputUri({ source: mainUri, kernel: 'layernorm', stage: 'dispatch' });
    expect(editor.opened).toEqual([target.toString()]);
  });

  it('the timeline draws every stage and kernel of the last compile', async () => {
    const html = timelineHtml(await requestStats(connection, mainUri), 'main.accy');
    expect(html.match(/<h2>[^<]*<\/h2>/g)).toEqual(STAGES.map((stage) => `<h2>${stage}</h2>`));
    for (const kernel of ['softmax', 'layernorm'])
      expect(html.match(new RegExp(`<span class="label">${kernel}</span>`, 'g'))).toHaveLength(STAGES.length);
  });

  it('"Show Stage Fingerprints": the seven stages of the chosen kernel in the output channel', async () => {
    editor.reset();
    editor.activeDocument = { uri: vscode.Uri.parse(mainUri), languageId: 'accy' };
    editor.picks = ['softmax'];
    const channel = vscode.window.createOutputChannel('Accy Fingerprints');
    await showStageFingerprints(connection, channel);
    const written = editor.output.get('Accy Fingerprints')!.join('\n');
    expect(written).toContain('kernel softmax (version');
    for (const stage of STAGES) expect(written).toMatch(new RegExp(`^${stage}\\s+[0-9a-f]{16}\\s`, 'm'));
  });

  it('passes diagnostics through and shows why a stage output is missing', async () => {
    const compilesSoFar = compiled.filter((u) => u === mainUri).length;
    change(mainUri, MAIN.replace('return norm(x, g, b);', 'return norm(x, g, c);'));
    await compiles(mainUri, compilesSoFar + 1);
    const last = shown.filter((p) => p.uri === mainUri).at(-1)!;
    expect(last.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'E0022', source: 'accy-frontend' }),
    );
    const text = await stageOutputs.provideTextDocumentContent(
      stageOutputUri({ source: mainUri, kernel: 'nosuch', stage: 'tensor' }),
    );
    expect(text).toMatch(/^\/\/ tensor of kernel nosuch: .+/);
  });
});
