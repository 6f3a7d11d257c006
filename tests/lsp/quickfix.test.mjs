// textDocument/codeAction quick fixes through a real client, one test per
// kind of fix: the action is offered at its diagnostic and names it (its
// `diagnostics` are the published one), and its edit, applied to the text,
// gives a program that `accyc check` accepts. The import fix is resolved
// with codeAction/resolve, as an editor does when the action is chosen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session, applyEdits, uriOf } from './harness.mjs';

const accyc = process.env.ACCYC;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-quickfix-'));
let s;

function check(file) {
  const run = spawnSync(accyc, ['check', file], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

before(async () => {
  assert.ok(accyc, 'ACCYC names the accyc binary');
  fs.mkdirSync(path.join(dir, 'lib'));
  fs.writeFileSync(path.join(dir, 'lib', 'norm.accy'), [
    'const EPS = 0.00001;',
    'fn rmsnorm(x: f32[N, D]) -> f32[N, D] {',
    '  return x * rsqrt(mean(x * x, axis=1, keepdims=true) + EPS);',
    '}',
    '',
  ].join('\n'));
  s = new Session();
  const init = await s.connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: [{ uri: uriOf(dir), name: 'quickfix' }],
    capabilities: {},
  });
  s.connection.sendNotification('initialized', {});
  assert.deepEqual(init.capabilities.codeActionProvider,
    { codeActionKinds: ['quickfix'], resolveProvider: true });
});
after(() => {
  s.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

/// Opens `lines` as `name`.accy, takes the quick fix titled `title` of the
/// diagnostic with `code`, applies it, and checks the result with accyc.
async function fixAndCheck(name, lines, code, title) {
  const file = path.join(dir, `${name}.accy`);
  const text = lines.join('\n') + '\n';
  fs.writeFileSync(file, text);
  assert.notEqual(check(file).status, 0, `${name}.accy has the error to fix`);
  const uri = uriOf(file);
  s.open(uri, text);
  const published = await s.diagnosticsFor(uri, 1);
  const diagnostic = published.diagnostics.find((d) => d.code === code);
  assert.ok(diagnostic, `a ${code} diagnostic among ${JSON.stringify(published.diagnostics)}`);
  const actions = await s.request('textDocument/codeAction', {
    textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] },
  });
  let action = actions.find((a) => a.title === title);
  assert.ok(action, `'${title}' among ${JSON.stringify(actions.map((a) => a.title))}`);
  assert.equal(action.kind, 'quickfix');
  assert.deepEqual(action.diagnostics, [diagnostic]);
  if (!action.edit) {
    assert.ok(action.data, 'an action without an edit is resolved');
    action = await s.request('codeAction/resolve', action);
    assert.deepEqual(action.diagnostics, [diagnostic]);
  }
  const fixed = applyEdits(text, action.edit.changes[uri]);
  fs.writeFileSync(file, fixed);
  const result = check(file);
  assert.equal(result.status, 0, `accyc check of the fixed text:\n${fixed}\n${result.stderr}`);
  s.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  return fixed;
}

test('a misspelt built-in is replaced by the closest one', async () => {
  const fixed = await fixAndCheck('builtin', [
    'kernel k(x: f32[N, D]) -> f32[N, D] {',
    '  return sofmax(x, axis=1);',
    '}',
  ], 'E0023', "replace with 'softmax'");
  assert.match(fixed, /return softmax\(x, axis=1\);/);
});

test('a misspelt name is replaced by the closest one in scope', async () => {
  await fixAndCheck('name', [
    'kernel k(x: f32[N], scale: f32[N]) -> f32[N] {',
    '  let shifted = x + 1.0;',
    '  return shifted * scal;',
    '}',
  ], 'E0022', "replace with 'scale'");
});

test('keepdims=true makes a reduction broadcast against its input', async () => {
  const fixed = await fixAndCheck('keepdims', [
    'kernel k(x: f32[N, D]) -> f32[N, D] {',
    '  let m = max(x, axis=1);',
    '  return exp(x - m);',
    '}',
  ], 'E0040', "add keepdims=true to 'max'");
  assert.match(fixed, /max\(x, axis=1, keepdims=true\)/);
});

test('an explicit keepdims=false becomes true', async () => {
  await fixAndCheck('keepdims-false', [
    'kernel k(x: f32[N, D]) -> f32[N, D] {',
    '  return x / sum(x, axis=1, keepdims=false);',
    '}',
  ], 'E0040', "add keepdims=true to 'sum'");
});

test('an einsum spec is replaced by one whose letters agree with the operands', async () => {
  const fixed = await fixAndCheck('einsum', [
    'kernel k(x: f32[B, 784], w: f32[10, 784]) -> f32[B, 10] {',
    '  return einsum("bi,ij->bj", x, w);',
    '}',
  ], 'E0053', 'use the einsum spec "bi,ji->bj"');
  assert.match(fixed, /einsum\("bi,ji->bj", x, w\)/);
});

test('cast<T> converts the integer operand of mixed element types', async () => {
  const fixed = await fixAndCheck('cast', [
    'kernel k(x: f32[N], i: i32[N]) -> f32[N] {',
    '  return x * 2.0 + i;',
    '}',
  ], 'E0041', 'convert the right operand with cast<f32>');
  assert.match(fixed, /x \* 2\.0 \+ cast<f32>\(i\)/);
});

test('a transpose swaps the axes that make a matmul agree', async () => {
  const fixed = await fixAndCheck('matmul', [
    'kernel k(x: f32[B, 784], w: f32[10, 784]) -> f32[B, 10] {',
    '  return x @ w;',
    '}',
  ], 'E0055', 'transpose the right operand (swap its last two axes)');
  assert.match(fixed, /x @ transpose\(w, perm=\[1, 0\]\)/);
});

test('an unknown fn defined in another workspace file is imported', async () => {
  const fixed = await fixAndCheck('import', [
    '// A kernel that uses a helper of lib/norm.accy.',
    'kernel k(x: f32[N, D]) -> f32[N, D] {',
    '  return rmsnorm(x) * 2.0;',
    '}',
  ], 'E0023', 'import "lib/norm.accy" for \'rmsnorm\'');
  assert.match(fixed, /^import "lib\/norm\.accy";\n/);
});

test('an import goes after the imports already there', async () => {
  fs.writeFileSync(path.join(dir, 'lib', 'consts.accy'), 'const SCALE = 3.0;\n');
  const fixed = await fixAndCheck('import-second', [
    'import "lib/consts.accy";',
    'kernel k(x: f32[N, D]) -> f32[N, D] {',
    '  return rmsnorm(x) * SCALE;',
    '}',
  ], 'E0023', 'import "lib/norm.accy" for \'rmsnorm\'');
  assert.match(fixed, /^import "lib\/consts\.accy";\nimport "lib\/norm\.accy";\n/);
});

test('no quick fix where there is no diagnostic', async () => {
  const file = path.join(dir, 'clean.accy');
  const text = 'kernel k(x: f32[N]) -> f32[N] {\n  return x;\n}\n';
  fs.writeFileSync(file, text);
  const uri = uriOf(file);
  s.open(uri, text);
  await s.diagnosticsFor(uri, 1);
  const range = { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } };
  assert.deepEqual(await s.request('textDocument/codeAction',
    { textDocument: { uri }, range, context: { diagnostics: [] } }), []);
});
