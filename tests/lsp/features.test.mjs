// Hover (the seven stages of a kernel; type, shape, dispatch and GPU
// kernel of an expression, a contraction's tiles), inlay hints, symbols, definition across
// imports, semantic tokens, completion, signature help, accy/stageOutput,
// and `accy-lsp --check`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { Session, inputs, uriOf, positionOf, serverPath, ErrorCodes } from './harness.mjs';

const file = path.join(inputs, 'two-kernels.accy');
const uri = uriOf(file);
const text = fs.readFileSync(file, 'utf8');
const doc = { textDocument: { uri } };
let s;

before(async () => {
  s = new Session();
  await s.initialize();
  s.open(uri, text);
  assert.deepEqual((await s.diagnosticsFor(uri, 1)).diagnostics, []);
  await s.stats(uri); // answers once code is generated too
});
after(() => s.kill());

test('hover on a kernel shows the seven stages with fingerprint, key, time, pass runs and status', async () => {
  const hover = await s.request('textDocument/hover', { ...doc, position: positionOf(text, 'softmax(x') });
  assert.equal(hover.contents.kind, 'markdown');
  const rows = hover.contents.value.split('\n').filter((l) => /^\| [a-z]+ \| /.test(l) && !l.startsWith('| stage'));
  assert.deepEqual(rows.map((r) => r.split('|')[1].trim()),
    ['semantic', 'contract', 'tensor', 'dispatch', 'memory', 'kernel', 'target']);
  const stats = await s.stats(uri);
  for (const row of rows) {
    const [, stage, status, fingerprint, key, ms, runs] = row.split('|').map((c) => c.trim());
    const recorded = stats.stages.find((st) => st.stage === stage).kernels.find((k) => k.kernel === 'softmax');
    assert.equal(fingerprint, '`' + recorded.fingerprint + '`', `${stage} fingerprint`);
    assert.match(fingerprint, /^`[0-9a-f]{16}`$/);
    assert.equal(key, '`' + recorded.key + '`', `${stage} key`);
    assert.equal(status, recorded.status);
    assert.ok(Number(ms) >= 0);
    assert.ok(stage === 'semantic' ? runs === '-' : Number(runs) > 0, `${stage} pass runs`);
  }
});

test('hover on an expression shows its type, shape, dispatch and GPU kernel', async () => {
  const hover = await s.request('textDocument/hover', { ...doc, position: positionOf(text, 'exp(x - m)') });
  const value = hover.contents.value;
  assert.match(value, /`f32\[N, D\]`/);
  assert.match(value, /shape `\[N, D\]` \(rank 2\)/);
  assert.match(value, /kernel `softmax`, dispatch #\d+ \(schedule `row_reduction`\)/);
  assert.match(value, /`softmax_k\d+` \(sm_90\)/);
  assert.deepEqual(hover.range.start, positionOf(text, 'exp(x - m)'));
});

test('hover on a reduction or contraction shows its root\'s schedule', async () => {
  // Their first op in the dispatch stage is the fill that starts the
  // accumulator, which precedes the root it belongs to.
  for (const [at, schedule] of [['(x, axis=1', 'row_reduction'], ['@ w2', 'tiled_contraction']]) {
    const hover = await s.request('textDocument/hover', { ...doc, position: positionOf(text, at) });
    assert.match(hover.contents.value, new RegExp(`dispatch #\\d+ \\(schedule \`${schedule}\`\\)`), at);
  }
});

test('hover on a contraction shows its tiles, and tensor cores where they run it', async () => {
  // @ w2 is f32 (10 outputs: 32x32 tiles) on SIMT cores. A bf16
  // contraction accumulated in f32, in a document of its own: tensor cores
  // on sm_90, with its instruction and stages.
  const simt = await s.request('textDocument/hover', { ...doc, position: positionOf(text, '@ w2') });
  assert.match(simt.contents.value, /`mlp_k\d+` \(sm_90: 32x32x8 tiles\)/);
  const tcUri = uriOf(path.join(inputs, 'tensor-cores.accy'));
  const tcText = 'kernel tc(a: bf16[M, K], b: bf16[K, N]) -> f32[M, N] {\n' +
    '  return cast<f32>(a) @ cast<f32>(b);\n}\n';
  s.open(tcUri, tcText);
  assert.deepEqual((await s.diagnosticsFor(tcUri, 1)).diagnostics, []);
  await s.stats(tcUri);
  const tc = await s.request('textDocument/hover', { textDocument: { uri: tcUri }, position: positionOf(tcText, '@ cast') });
  assert.match(tc.contents.value, /\(schedule `tiled_contraction`\)/);
  assert.match(tc.contents.value, /`tc_k0` \(sm_90: 128x128x32 tiles on tensor cores, mma 16x8x16, 2 stages\)/);
});

test('hover on a name needs only the frontend', async () => {
  const hover = await s.request('textDocument/hover', { ...doc, position: positionOf(text, 'h = relu') });
  assert.match(hover.contents.value, /let h: f32\[B, 256\]/);
});

test('inlay hints show the shape of every let', async () => {
  const hints = await s.request('textDocument/inlayHint', { ...doc, range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } } });
  assert.deepEqual(hints.map((h) => h.label), [': f32[B, 256]', ': f32[N, 1]', ': f32[N, D]']);
  // Right after the name: `let m: f32[N, 1] = max(...)`.
  const name = positionOf(text, 'm = max');
  assert.deepEqual(hints[1].position, { line: name.line, character: name.character + 1 });
});

test('document symbols list imports, kernels and their parameters and lets', async () => {
  const symbols = await s.request('textDocument/documentSymbol', doc);
  assert.deepEqual(symbols.map((x) => x.name), ['helpers.accy', 'mlp', 'softmax']);
  const softmax = symbols[2];
  assert.deepEqual(softmax.children.map((c) => [c.name, c.detail]),
    [['x', 'f32[N, D]'], ['m', 'f32[N, 1]'], ['e', 'f32[N, D]']]);
});

test('go to definition: a let, and a const in an imported file', async () => {
  const local = await s.request('textDocument/definition', { ...doc, position: positionOf(text, 'm);') });
  assert.equal(local.uri, uri);
  assert.deepEqual(local.range.start, positionOf(text, 'm = max'));
  const imported = await s.request('textDocument/definition', { ...doc, position: positionOf(text, 'SCALE') });
  const helpers = path.join(inputs, 'helpers.accy');
  assert.equal(imported.uri, uriOf(helpers));
  assert.deepEqual(imported.range.start, positionOf(fs.readFileSync(helpers, 'utf8'), 'SCALE'));
  const importFile = await s.request('textDocument/definition', { ...doc, position: positionOf(text, 'helpers.accy') });
  assert.equal(importFile.uri, uriOf(helpers));
});

test('semantic tokens classify keywords, types, built-ins, parameters and lets', async () => {
  const tokens = await s.request('textDocument/semanticTokens/full', doc);
  const legend = ['keyword', 'type', 'number', 'string', 'function', 'parameter', 'variable', 'typeParameter'];
  const lines = text.split('\n');
  let line = 0, character = 0;
  const decoded = [];
  for (let i = 0; i < tokens.data.length; i += 5) {
    const [dl, dc, length, type, modifiers] = tokens.data.slice(i, i + 5);
    line += dl;
    character = dl ? dc : character + dc;
    decoded.push({ text: lines[line].slice(character, character + length), type: legend[type], modifiers });
  }
  const find = (t, type) => decoded.find((d) => d.text === t && d.type === type);
  assert.ok(find('kernel', 'keyword'));
  assert.ok(find('f32', 'type'));
  assert.ok(find('relu', 'function'));
  assert.ok(find('w1', 'parameter'));
  assert.ok(find('h', 'variable'));
  assert.ok(find('SCALE', 'variable'));
  assert.ok(find('B', 'typeParameter'));
  assert.ok(find('"bi,ij->bj"', 'string'));
});

test('completion offers the built-ins with their signatures', async () => {
  const list = await s.request('textDocument/completion', { ...doc, position: positionOf(text, 'return h @') });
  const byLabel = new Map(list.items.map((i) => [i.label, i]));
  assert.equal(byLabel.get('softmax').detail, 'softmax(x, axis=-1)');
  assert.equal(byLabel.get('einsum').kind, 3);
  assert.ok(byLabel.has('h'), 'the let before the cursor');
  assert.ok(byLabel.has('SCALE'), 'an imported const');
  assert.ok(byLabel.has('double'), 'an imported fn');
});

test('signature help names the parameter being typed', async () => {
  const inSum = positionOf(text, 'axis=1, keepdims=true) *');
  const help = await s.request('textDocument/signatureHelp', { ...doc, position: { line: inSum.line, character: inSum.character + 'axis=1, keep'.length } });
  const [signature] = help.signatures;
  assert.equal(signature.label, 'sum(x, axis=K|[K, ...], keepdims=false)');
  const [b, e] = signature.parameters[help.activeParameter].label;
  assert.equal(signature.label.slice(b, e), 'keepdims=false');
});

test('accy/stageOutput returns a stage\'s IR for a kernel, and an error for an unknown one', async () => {
  const tensor = await s.request('accy/stageOutput', { uri, kernel: 'softmax', stage: 'tensor' });
  assert.match(tensor.text, /module @softmax/);
  assert.match(tensor.text, /linalg\./);
  const kernel = await s.request('accy/stageOutput', { uri, kernel: 'mlp', stage: 'kernel' });
  assert.match(kernel.text, /gpu\.module/);
  await assert.rejects(s.request('accy/stageOutput', { uri, kernel: 'nope', stage: 'tensor' }),
    (e) => e.code === ErrorCodes.InvalidParams && /no kernel 'nope'/.test(e.message));
  await assert.rejects(s.request('accy/stageOutput', { uri, kernel: 'mlp', stage: 'sideways' }),
    (e) => e.code === ErrorCodes.InvalidParams);
});

test('accy-lsp --check runs every feature on a file', async () => {
  const { stdout } = await promisify(execFile)(serverPath(), ['--check', file]);
  assert.match(stdout, /^diagnostics \(/);
  assert.match(stdout, /hover kernel softmax at 10:8:/);
  assert.match(stdout, /inlay hints: 3/);
  assert.match(stdout, /document symbols: 3/);
  // The input is in accy-format's layout.
  assert.match(stdout, /formatting edits: 0/);
  assert.match(stdout, /stage output softmax target: \d+ bytes/);
  // A failing stage (here a pass failure the test hook makes) exits with 1.
  const failing = await promisify(execFile)(serverPath(), ['--check', file],
    { env: { ...process.env, ACCY_INJECT_FAULT: 'accy-legalize-math:fail' } }).catch((e) => e);
  assert.equal(failing.code, 1);
  assert.match(failing.stdout, /error \[accy-choir-target accy-legalize-math\]/);
});
