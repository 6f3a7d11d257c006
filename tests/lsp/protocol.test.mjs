// The protocol's lifecycle and plumbing: initialize and its capabilities,
// requests before initialize and after shutdown, unknown methods,
// cancellation, $/progress, and the exit codes of shutdown/exit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import rpc from 'vscode-jsonrpc/node.js';
import { Session, withSession, inputs, uriOf, positionOf, serverPath, ErrorCodes, LSPErrorCodes } from './harness.mjs';

const file = path.join(inputs, 'two-kernels.accy');
const uri = uriOf(file);
const text = fs.readFileSync(file, 'utf8');

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('the request succeeded');
}

test('initialize announces incremental sync, UTF-16 by default and the features', async () => {
  const s = new Session();
  try {
    const { capabilities, serverInfo } = await s.initialize();
    assert.equal(serverInfo.name, 'accy-lsp');
    assert.equal(capabilities.positionEncoding, 'utf-16');
    assert.equal(capabilities.textDocumentSync.change, 2);
    for (const feature of ['hoverProvider', 'inlayHintProvider', 'documentSymbolProvider',
                           'definitionProvider', 'semanticTokensProvider', 'completionProvider',
                           'signatureHelpProvider', 'diagnosticProvider'])
      assert.ok(capabilities[feature], feature);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('requests before initialize get ServerNotInitialized; unknown methods MethodNotFound', async () => {
  const s = new Session();
  try {
    const early = await rejection(s.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } }));
    assert.equal(early.code, -32002);
    await s.initialize();
    const unknown = await rejection(s.request('accy/noSuchMethod', {}));
    assert.equal(unknown.code, ErrorCodes.MethodNotFound);
    // A second initialize is an invalid request.
    const again = await rejection(s.request('initialize', { processId: null, rootUri: null, capabilities: {} }));
    assert.equal(again.code, ErrorCodes.InvalidRequest);
    // Bad params are InvalidParams, and the server keeps serving.
    const bad = await rejection(s.request('textDocument/hover', { textDocument: { uri: 7 } }));
    assert.equal(bad.code, ErrorCodes.InvalidParams);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('after shutdown requests are invalid; exit then ends with 0', () => withSession(async (s) => {
  await s.request('shutdown', null);
  const late = await rejection(s.request('textDocument/documentSymbol', { textDocument: { uri } }));
  assert.equal(late.code, ErrorCodes.InvalidRequest);
  s.connection.sendNotification('exit');
  assert.equal(await s.exited, 0);
}));

test('exit without shutdown ends with 1', () => withSession(async (s) => {
  s.connection.sendNotification('exit');
  assert.equal(await s.exited, 1);
}));

test('a cancelled request is answered with RequestCancelled and the server goes on', () => withSession(async (s) => {
  s.open(uri, text);
  await s.diagnosticsFor(uri, 1);
  // The kernel hover waits for the compile of the new version, which the
  // debounce holds back: cancel it while it waits.
  const version = s.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// edit\n' }]);
  const source = new rpc.CancellationTokenSource();
  const pending = s.connection.sendRequest('textDocument/hover',
    { textDocument: { uri }, position: positionOf('// edit\n' + text, 'softmax') }, source.token);
  source.cancel();
  const error = await rejection(pending);
  assert.equal(error.code, LSPErrorCodes.RequestCancelled);
  // The same hover, not cancelled, answers once the compile is done.
  await s.diagnosticsFor(uri, version);
  const hover = await s.request('textDocument/hover', { textDocument: { uri }, position: positionOf('// edit\n' + text, 'softmax') });
  assert.match(hover.contents.value, /\| target \|/);
  assert.equal(await s.shutdownAndExit(), 0);
}));

test('$/progress reports the stages of a compile', () => withSession(async (s) => {
  s.open(uri, text);
  await s.diagnosticsFor(uri, 1);
  await s.until(() => s.progress.some((p) => p.value.kind === 'end'), 'the end of the progress');
  const kinds = s.progress.map((p) => p.value.kind);
  assert.equal(kinds[0], 'begin');
  assert.equal(kinds[kinds.length - 1], 'end');
  const stages = s.progress.filter((p) => p.value.kind === 'report').map((p) => p.value.message);
  assert.deepEqual(stages, ['semantic', 'contract', 'tensor', 'dispatch', 'memory', 'kernel', 'target']);
  assert.equal(new Set(s.progress.map((p) => p.token)).size, 1);
  assert.equal(await s.shutdownAndExit(), 0);
}));

test('--listen serves one client over TCP on the loopback interface', async () => {
  const server = spawn(serverPath(), ['--listen', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = once(server, 'exit').then(([code]) => code);
  try {
    let stderr = '';
    const port = await new Promise((resolve, reject) => {
      server.stderr.on('data', (d) => {
        stderr += d;
        const m = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
        if (m) resolve(Number(m[1]));
      });
      server.on('exit', () => reject(new Error(stderr)));
    });
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const connection = rpc.createMessageConnection(new rpc.SocketMessageReader(socket), new rpc.SocketMessageWriter(socket));
    connection.listen();
    const published = new Promise((resolve) => connection.onNotification('textDocument/publishDiagnostics', resolve));
    const { capabilities } = await connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
    assert.equal(capabilities.textDocumentSync.change, 2);
    connection.sendNotification('initialized', {});
    connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'accy', version: 1, text } });
    assert.deepEqual((await published).diagnostics, []);
    await connection.sendRequest('shutdown', null);
    connection.sendNotification('exit');
    assert.equal(await exited, 0);
    connection.dispose();
    socket.destroy();
  } finally {
    server.kill();
  }
});

test('requests that need only the frontend are answered while the stages still run', () => withSession(async (s) => {
  // The first compile runs every stage of both kernels (the target stage
  // alone takes many times longer than the frontend).
  s.open(uri, text);
  const answered = [];
  const symbols = s.request('textDocument/documentSymbol', { textDocument: { uri } })
    .then((r) => { answered.push(['symbols', s.diagnostics.length]); return r; });
  const hover = s.request('textDocument/hover', { textDocument: { uri }, position: positionOf(text, 'h = relu') })
    .then((r) => { answered.push(['hover', s.diagnostics.length]); return r; });
  const completion = s.request('textDocument/completion', { textDocument: { uri }, position: positionOf(text, 'return h') })
    .then((r) => { answered.push(['completion', s.diagnostics.length]); return r; });
  await Promise.all([symbols, hover, completion]);
  await s.diagnosticsFor(uri, 1);
  // None of them waited for the diagnostics, which need every stage.
  assert.deepEqual(answered.map(([, published]) => published), [0, 0, 0]);
  const stats = await s.stats(uri);
  assert.ok(stats.stages.find((st) => st.stage === 'target').seconds > 0);
}));
