// What a well-behaved client never sends: each case gets the error the
// specification asks for (or is ignored where it says so), and the server
// keeps serving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { RawClient, Session, withSession, inputs, uriOf, positionOf, ErrorCodes } from './harness.mjs';

const file = path.join(inputs, 'two-kernels.accy');
const uri = uriOf(file);
const text = fs.readFileSync(file, 'utf8');

const initialize = (id) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
const request = (id, method, params = {}) => ({ jsonrpc: '2.0', id, method, params });
const parseError = (m) => m.id === null && m.error?.code === ErrorCodes.ParseError;

test('malformed JSON and non-objects get errors; the server goes on', async () => {
  const c = new RawClient();
  try {
    c.write('Content-Length: 9\r\n\r\n{"jsonrpc');
    await c.next(parseError, 'a parse error');
    c.write('Content-Length: 2\r\n\r\n42');
    const invalid = await c.next((m) => m.error?.code === ErrorCodes.InvalidRequest, 'an invalid request');
    assert.equal(invalid.id, null);
    c.send({ jsonrpc: '1.0', id: 3, method: 'initialize' });
    assert.equal((await c.response(3)).error.code, ErrorCodes.InvalidRequest);
    c.send(initialize(4));
    assert.ok((await c.response(4)).result.capabilities);
  } finally {
    c.kill();
  }
});

test('malformed params of every method get InvalidParams naming where; a malformed notification is dropped', async () => {
  const c = new RawClient();
  try {
    c.send(initialize(1));
    await c.response(1);
    c.send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'accy', version: 1, text } } });
    const cases = [
      ['textDocument/hover', { textDocument: { uri }, position: { line: 'one', character: 0 } }, /params\.position\.line: expected an unsigned integer/],
      ['textDocument/hover', { textDocument: { uri } }, /params\.position: expected a position/],
      ['textDocument/definition', { textDocument: { uri: 7 }, position: { line: 0, character: 0 } }, /params\.textDocument\.uri: expected a string/],
      ['textDocument/completion', { position: { line: 0, character: -1 } }, /params\.textDocument/],
      ['textDocument/signatureHelp', { textDocument: { uri }, position: { line: 0, character: -1 } }, /params\.position\.character/],
      ['textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 } } }, /params\.range\.end: expected a position/],
      ['textDocument/documentSymbol', [], /params\.textDocument/],
      ['textDocument/semanticTokens/full', { textDocument: null }, /params\.textDocument/],
      ['textDocument/diagnostic', { textDocument: {} }, /params\.textDocument\.uri/],
      ['accy/stageOutput', { uri, kernel: 'mlp' }, /params\.stage: expected a string/],
      ['accy/stats', { uri: ['x'] }, /params\.uri: expected a string/],
    ];
    let id = 10;
    for (const [method, params, message] of cases) {
      c.send(request(++id, method, params));
      const { error } = await c.response(id);
      assert.equal(error?.code, ErrorCodes.InvalidParams, `${method} ${JSON.stringify(params)}`);
      assert.match(error.message, message);
    }
    // A didChange whose change has no text: logged, dropped, version 1 stays.
    c.send({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [{ range: null }] } });
    const logged = await c.next((m) => m.method === 'window/logMessage', 'the log of the dropped notification');
    assert.match(logged.params.message, /textDocument\/didChange dropped: invalid params: params\.contentChanges\[0\]\.text: expected a string/);
    c.send(request(++id, 'accy/stats', { uri }));
    assert.equal((await c.response(id)).result.version, 1);
  } finally {
    c.kill();
  }
});

test('a Content-Length that is too long, too short, huge or missing is a parse error, not the end', async () => {
  const c = new RawClient();
  try {
    c.send(initialize(1));
    await c.response(1);
    const symbols = (id) => request(id, 'textDocument/documentSymbol', { textDocument: { uri } });
    const frame = (m) => { const b = JSON.stringify(m); return `Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`; };

    // Too long: the next message's header turns up inside the body.
    c.write('Content-Length: 500\r\n\r\n' + JSON.stringify(symbols(2)) + frame(request(3, 'accy/noSuchMethod')));
    await c.next(parseError, 'a parse error for the long frame');
    assert.equal((await c.response(3)).error.code, ErrorCodes.MethodNotFound);

    // Too short: a cut body (one parse error), then the rest as garbage
    // without a header (another) before the next frame.
    c.write('Content-Length: 10\r\n\r\n' + JSON.stringify(symbols(4)) + frame(request(5, 'accy/noSuchMethod')));
    await c.next(parseError, 'a parse error for the short frame');
    await c.next(parseError, 'a parse error for the garbage after it');
    assert.equal((await c.response(5)).error.code, ErrorCodes.MethodNotFound);

    // Huge: refused at once, not waited for.
    c.write('Content-Length: 99999999999\r\n\r\n' + frame(request(6, 'accy/noSuchMethod')));
    await c.next(parseError, 'a parse error for the huge frame');
    assert.equal((await c.response(6)).error.code, ErrorCodes.MethodNotFound);

    // Missing.
    c.write('Content-Type: application/vscode-jsonrpc\r\n\r\n{}' + frame(request(7, 'accy/noSuchMethod')));
    await c.next(parseError, 'a parse error for the missing length');
    assert.equal((await c.response(7)).error.code, ErrorCodes.MethodNotFound);

    // Unknown notifications are ignored: the next answer is for id 8.
    c.send({ jsonrpc: '2.0', method: 'accy/unknownNotification', params: {} });
    c.send({ jsonrpc: '2.0', method: '$/unknownNotification', params: {} });
    c.send(request(8, 'shutdown', null));
    assert.equal((await c.response(8)).result, null);
    assert.equal(c.messages.filter((m) => m.error).length, 0, JSON.stringify(c.messages));
    c.send({ jsonrpc: '2.0', method: 'exit' });
    assert.equal(await c.exited, 0);
  } finally {
    c.kill();
  }
});

test('$/cancelRequest turns a waiting request into RequestCancelled (-32800)', async () => {
  const c = new RawClient();
  try {
    c.send(initialize(1));
    await c.response(1);
    c.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
    c.send({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'accy', version: 1, text } } });
    await c.next((m) => m.method === 'textDocument/publishDiagnostics', 'the first diagnostics');
    c.send({ jsonrpc: '2.0', method: 'textDocument/didChange', params: { textDocument: { uri, version: 2 }, contentChanges: [{ text: '// edit\n' + text }] } });
    c.send(request('hover-1', 'textDocument/hover', { textDocument: { uri }, position: positionOf('// edit\n' + text, 'mlp') }));
    c.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 'hover-1' } });
    const cancelled = await c.response('hover-1');
    assert.equal(cancelled.error.code, -32800);
    c.send(request(2, 'textDocument/hover', { textDocument: { uri }, position: positionOf('// edit\n' + text, 'mlp') }));
    assert.match((await c.response(2)).result.contents.value, /\| semantic \|/);
  } finally {
    c.kill();
  }
});

test('a document closed mid-compile: cleared, never published again, and the server goes on', () => withSession(async (s) => {
  s.open(uri, text);
  await s.diagnosticsFor(uri, 1);
  // A change whose compile has begun (its progress says so): close then.
  s.change(uri, [{ text: text.replace('exp(x - m)', 'exp((x - m) * 0.5)') }]);
  await s.until(() => s.progress.some((p) => p.value.kind === 'begin' && /version 2/.test(p.value.title)),
    'the compile of version 2 to begin');
  s.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  const cleared = await s.until(() => s.diagnostics.find((d) => d.uri === uri && d.version === undefined), 'the clearing');
  assert.deepEqual(cleared.diagnostics, []);
  await assert.rejects(s.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } }),
    (e) => e.code === ErrorCodes.InvalidParams);
  // Time for the compile that was pending: nothing may be published.
  await new Promise((r) => setTimeout(r, 700));
  const clearedAt = s.diagnostics.indexOf(cleared);
  assert.equal(s.diagnostics.slice(clearedAt).filter((d) => d.uri === uri && d.version === 2).length, 0);
  // Opened again, it is served as usual.
  s.open(uri, text, 3);
  assert.deepEqual((await s.diagnosticsFor(uri, 3)).diagnostics, []);
  assert.equal(await s.shutdownAndExit(), 0);
}));

test('an edit whose range is past the end of the document clamps to the end', () => withSession(async (s) => {
  s.open(uri, text);
  await s.diagnosticsFor(uri, 1);
  const extra = '\nkernel extra(x: f32[N]) -> f32[N] {\n  return relu(x);\n}\n';
  const version = s.change(uri, [{ range: { start: { line: 1000, character: 5 }, end: { line: 2000, character: 0 } }, text: extra }]);
  assert.deepEqual((await s.diagnosticsFor(uri, version)).diagnostics, []);
  const symbols = await s.request('textDocument/documentSymbol', { textDocument: { uri } });
  assert.deepEqual(symbols.map((x) => x.name), ['helpers.accy', 'mlp', 'softmax', 'extra']);
  // A column past the end of a line means the end of that line.
  const line0 = text.split('\n')[0];
  const v2 = s.change(uri, [{ range: { start: { line: 0, character: line0.length + 50 }, end: { line: 0, character: line0.length + 60 } }, text: ' (edited)' }]);
  assert.deepEqual((await s.diagnosticsFor(uri, v2)).diagnostics, []);
  const stats = await s.stats(uri);
  assert.equal(stats.version, v2);
}));
