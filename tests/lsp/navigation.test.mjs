// Navigation and refactoring: references and rename across an import and
// the workspace's files, documentHighlight, prepareRename, refused renames,
// workspace/symbol (indexed in the background, kept current by watched-file
// events), folding ranges, selection ranges and semantic-token deltas.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session, uriOf, positionOf } from './harness.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-nav-'));
const files = {
  'common.accy': [
    'const EPS = 1e-5;',
    '',
    'fn norm(x: f32[N, D]) -> f32[N, D] {',
    '  let mu = mean(x, axis=1, keepdims=true);',
    '  return (x - mu) * rsqrt(mu + EPS);',
    '}',
    ''].join('\n'),
  'model.accy': [
    'import "common.accy";',
    '',
    'kernel layer(x: f32[B, 64]) -> f32[B, 64] {',
    '  let y = norm(x);',
    '  let z = relu(y) + EPS;',
    '  return z * y;',
    '}',
    ''].join('\n'),
  'other.accy': [
    'import "common.accy";',
    '',
    'kernel other(a: f32[4, 4]) -> f32[4, 4] {',
    '  return norm(a);',
    '}',
    ''].join('\n'),
  'sub/deep.accy': 'kernel deep_kernel(a: f32[8]) -> f32[8] {\n  return a;\n}\n',
  '.hidden/skipped.accy': 'kernel hidden_kernel(a: f32[8]) -> f32[8] {\n  return a;\n}\n',
};
for (const [name, text] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), text);
}
const model = path.join(dir, 'model.accy');
const modelUri = uriOf(model);
const modelText = files['model.accy'];
const at = (needle, occurrence = 0) => ({ textDocument: { uri: modelUri }, position: positionOf(modelText, needle, occurrence) });
let s;

before(async () => {
  s = new Session();
  await s.connection.sendRequest('initialize', {
    processId: process.pid, rootUri: uriOf(dir),
    workspaceFolders: [{ uri: uriOf(dir), name: 'nav' }],
    capabilities: { window: { workDoneProgress: true } },
  });
  s.connection.sendNotification('initialized', {});
  s.open(modelUri, modelText);
  assert.deepEqual((await s.diagnosticsFor(modelUri, 1)).diagnostics, []);
  // The background index says when its first scan is done.
  await s.until(() => s.progress.find((p) => p.value.kind === 'end' && /^indexed \d+ files/.test(p.value.message)),
    'the end of the workspace scan');
});
after(() => { s.kill(); fs.rmSync(dir, { recursive: true, force: true }); });

const byPlace = (a, b) => a.uri.localeCompare(b.uri) || a.range.start.line - b.range.start.line ||
  a.range.start.character - b.range.start.character;
const place = (l) => `${path.basename(new URL(l.uri).pathname)}:${l.range.start.line}:${l.range.start.character}`;

/// `text` with the LSP edits applied (ASCII text: characters are bytes).
function applyEdits(text, edits) {
  const lines = text.split('\n');
  const offset = (p) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}

test('references of an imported fn: its definition and its calls in every importing file', async () => {
  const refs = await s.request('textDocument/references', { ...at('norm(x)'), context: { includeDeclaration: true } });
  assert.deepEqual(refs.sort(byPlace).map(place), ['common.accy:2:3', 'model.accy:3:10', 'other.accy:3:9']);
  const uses = await s.request('textDocument/references', { ...at('norm(x)'), context: { includeDeclaration: false } });
  assert.deepEqual(uses.sort(byPlace).map(place), ['model.accy:3:10', 'other.accy:3:9']);
});

test('references of a let stay in its kernel; of an imported const reach its file', async () => {
  const refs = await s.request('textDocument/references', { ...at('y = norm'), context: { includeDeclaration: true } });
  assert.deepEqual(refs.sort(byPlace).map(place), ['model.accy:3:6', 'model.accy:4:15', 'model.accy:5:13']);
  const eps = await s.request('textDocument/references', { ...at('EPS'), context: { includeDeclaration: true } });
  assert.deepEqual(eps.sort(byPlace).map(place), ['common.accy:0:6', 'common.accy:4:31', 'model.accy:4:20']);
});

test('documentHighlight: the definition is written, the uses read', async () => {
  const highlights = await s.request('textDocument/documentHighlight', at('z * y'));
  assert.deepEqual(highlights.map((h) => [h.range.start.line, h.range.start.character, h.kind]),
    [[4, 6, 3], [5, 9, 2]]);
  assert.deepEqual(await s.request('textDocument/documentHighlight', at('relu')), []);
});

test('prepareRename names the range and text; keywords and built-ins are refused', async () => {
  const prepared = await s.request('textDocument/prepareRename', at('norm(x)'));
  assert.deepEqual(prepared, { range: { start: { line: 3, character: 10 }, end: { line: 3, character: 14 } }, placeholder: 'norm' });
  await assert.rejects(s.request('textDocument/prepareRename', at('relu')), /'relu' is a built-in function/);
  await assert.rejects(s.request('textDocument/prepareRename', at('kernel')), /'kernel' is a keyword/);
  await assert.rejects(s.request('textDocument/prepareRename', at('f32')), /'f32' is a keyword/);
});

test('rename across an import edits the defining file and every importer', async () => {
  const edit = await s.request('textDocument/rename', { ...at('norm(x)'), newName: 'layer_norm' });
  const changed = Object.keys(edit.changes).map((u) => path.basename(new URL(u).pathname)).sort();
  assert.deepEqual(changed, ['common.accy', 'model.accy', 'other.accy']);
  const read = (name) => fs.readFileSync(path.join(dir, name), 'utf8');
  assert.match(applyEdits(read('common.accy'), edit.changes[uriOf(path.join(dir, 'common.accy'))]), /^fn layer_norm\(x/m);
  assert.equal(applyEdits(modelText, edit.changes[modelUri]), modelText.replace('norm(x)', 'layer_norm(x)'));
  assert.equal(applyEdits(read('other.accy'), edit.changes[uriOf(path.join(dir, 'other.accy'))]),
    read('other.accy').replace('norm(a)', 'layer_norm(a)'));
  // The same rename asked from the defining file's side gives the same edits.
  const renamedConst = await s.request('textDocument/rename', { ...at('EPS'), newName: 'EPSILON' });
  assert.equal(Object.values(renamedConst.changes).flat().length, 3);
});

test('an open definition file with unsaved edits gets its edits at its open text', async () => {
  const common = path.join(dir, 'common.accy');
  const uri = uriOf(common);
  const unsaved = '// not saved yet\n' + files['common.accy'];
  s.open(uri, unsaved);
  try {
    const refs = await s.request('textDocument/references', { ...at('norm(x)'), context: { includeDeclaration: true } });
    assert.deepEqual(refs.sort(byPlace).map(place), ['common.accy:3:3', 'model.accy:3:10', 'other.accy:3:9']);
    const edit = await s.request('textDocument/rename', { ...at('norm(x)'), newName: 'scaled_norm' });
    assert.match(applyEdits(unsaved, edit.changes[uri]), /^fn scaled_norm\(x/m);
    // And from the definition's side, the importers' uses.
    const fromDef = await s.request('textDocument/references', {
      textDocument: { uri }, position: positionOf(unsaved, 'norm'), context: { includeDeclaration: false } });
    assert.deepEqual(fromDef.sort(byPlace).map(place), ['model.accy:3:10', 'other.accy:3:9']);
  } finally {
    s.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }
  // Closed: the index reads the file from disk again.
  const line = async () => (await s.request('workspace/symbol', { query: 'norm' }))[0].location.range.start.line;
  for (let i = 0; i < 200 && await line() !== 2; ++i) await new Promise((r) => setTimeout(r, 25));
  assert.equal(await line(), 2);
});

test('a rename that would clash, shadow or not be a name is refused with a message', async () => {
  const refused = (needle, newName) => s.request('textDocument/rename', { ...at(needle), newName });
  await assert.rejects(refused('y = norm', 'z'), /the let 'z' of 'layer' has that name/);
  await assert.rejects(refused('y = norm', 'EPS'), /would shadow the const 'EPS'/);
  await assert.rejects(refused('y = norm', 'B'), /the dimension 'B' of 'layer' has that name/);
  await assert.rejects(refused('norm(x)', 'layer'), /the kernel 'layer' is already visible in model.accy/);
  await assert.rejects(refused('norm(x)', 'z'), /the let 'z' of 'layer' .* would shadow it/);
  await assert.rejects(refused('norm(x)', 'relu'), /'relu' is the name of a built-in function/);
  await assert.rejects(refused('norm(x)', 'let'), /'let' is a keyword/);
  await assert.rejects(refused('norm(x)', '2fast'), /'2fast' is not a name/);
  await assert.rejects(refused('relu', 'act'), /built-in/);
  // A name no other name takes is fine.
  const edit = await refused('y = norm', 'normed');
  assert.equal(edit.changes[modelUri].length, 3);
  // A name used without a definition would come to name the renamed let.
  const capture = 'kernel c(x: f32[4]) -> f32[4] {\n  let a = x;\n  return a + missing;\n}\n';
  const uri = uriOf(path.join(dir, 'capture.accy'));
  s.open(uri, capture);
  await assert.rejects(s.request('textDocument/rename', { textDocument: { uri }, position: positionOf(capture, 'a = x'), newName: 'missing' }),
    /'missing' is used in 'c' without a definition, and would come to name it/);
  s.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  // Closed and not on disk: it leaves the workspace index.
  const named = async () => (await s.request('workspace/symbol', { query: 'c' })).some((x) => x.name === 'c');
  for (let i = 0; i < 200 && await named(); ++i) await new Promise((r) => setTimeout(r, 25));
  assert.equal(await named(), false);
});

test('workspace/symbol finds items of every file under the folders, not hidden ones', async () => {
  const names = async (query) => (await s.request('workspace/symbol', { query })).map((x) => x.name).sort();
  assert.deepEqual(await names(''), ['EPS', 'deep_kernel', 'layer', 'norm', 'other']);
  const [norm] = await s.request('workspace/symbol', { query: 'nrm' });
  assert.equal(norm.name, 'norm');
  assert.equal(norm.location.uri, uriOf(path.join(dir, 'common.accy')));
  assert.deepEqual(norm.location.range.start, { line: 2, character: 3 });
  assert.deepEqual(await names('DEEP'), ['deep_kernel']);
});

test('workspace/symbol follows didChangeWatchedFiles and the open documents', async () => {
  const added = path.join(dir, 'added.accy');
  fs.writeFileSync(added, 'kernel fresh_kernel(a: f32[2]) -> f32[2] {\n  return a;\n}\n');
  s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(added), type: 1 }] });
  const found = async (query) => (await s.request('workspace/symbol', { query })).map((x) => x.name);
  const poll = async (query, want) => {
    for (let i = 0; i < 200; ++i) {
      if ((await found(query)).includes(want) === true) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  };
  assert.ok(await poll('fresh', 'fresh_kernel'), 'a created file is indexed');
  fs.rmSync(added);
  s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(added), type: 3 }] });
  for (let i = 0; i < 200 && (await found('fresh')).length; ++i) await new Promise((r) => setTimeout(r, 25));
  assert.deepEqual(await found('fresh'), [], 'a deleted file leaves the index');
  // An edit in the editor, not yet saved.
  const version = s.change(modelUri, [{ range: { start: { line: 2, character: 7 }, end: { line: 2, character: 12 } }, text: 'block' }]);
  await s.diagnosticsFor(modelUri, version);
  assert.ok(await poll('block', 'block'), 'an unsaved edit is indexed');
  const back = s.change(modelUri, [{ range: { start: { line: 2, character: 7 }, end: { line: 2, character: 12 } }, text: 'layer' }]);
  await s.diagnosticsFor(modelUri, back);
});

test('workspace folders added and removed after initialize are indexed and forgotten', async () => {
  const extra = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-nav-extra-'));
  try {
    fs.writeFileSync(path.join(extra, 'more.accy'), 'const EXTRA_SCALE = 3;\n');
    const ends = () => s.progress.filter((p) => p.value.kind === 'end' && /^indexed/.test(p.value.message)).length;
    const before = ends();
    s.connection.sendNotification('workspace/didChangeWorkspaceFolders',
      { event: { added: [{ uri: uriOf(extra), name: 'extra' }], removed: [] } });
    await s.until(() => ends() > before, 'the scan of the added folder');
    assert.deepEqual((await s.request('workspace/symbol', { query: 'EXTRA' })).map((x) => x.name), ['EXTRA_SCALE']);
    s.connection.sendNotification('workspace/didChangeWorkspaceFolders',
      { event: { added: [], removed: [{ uri: uriOf(extra), name: 'extra' }] } });
    // Notifications are handled in order: the next request sees the removal.
    assert.deepEqual(await s.request('workspace/symbol', { query: 'EXTRA' }), []);
  } finally {
    fs.rmSync(extra, { recursive: true, force: true });
  }
});

test('foldingRange: the imports, the kernel body and a statement over two lines', async () => {
  const text = 'import "common.accy";\nimport "other.accy";\n\nkernel k(x: f32[4]) -> f32[4] {\n  let y = x +\n    x;\n  return y;\n}\n';
  const uri = uriOf(path.join(dir, 'fold.accy'));
  s.open(uri, text);
  const ranges = await s.request('textDocument/foldingRange', { textDocument: { uri } });
  assert.deepEqual(ranges.map((r) => [r.startLine, r.endLine, r.kind]),
    [[0, 1, 'imports'], [3, 6, 'region'], [4, 5, 'region']]);
  s.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
});

test('selectionRange grows from a name to its expressions, statement, body, kernel and file', async () => {
  const [selection] = await s.request('textDocument/selectionRange', {
    textDocument: { uri: modelUri }, positions: [positionOf(modelText, 'y) + EPS')] });
  const chain = [];
  for (let r = selection; r; r = r.parent) chain.push(r.range);
  const lines = modelText.split('\n');
  const textOf = (r) => r.start.line === r.end.line ? lines[r.start.line].slice(r.start.character, r.end.character) : `${r.start.line}-${r.end.line}`;
  assert.deepEqual(chain.map(textOf), ['y', 'relu(y)', 'relu(y) + EPS', 'let z = relu(y) + EPS;', '2-6', '2-6', '0-7']);
});

test('every new request at every position of a broken file answers', async () => {
  const text = 'import "nowhere.accy";\nconst C = ;\nfn f(a: f32[N) -> f32[N] {\n  let b = a +\n  return b(;\n}\nkernel k(x: f32[M]) -> {\n  let x = f(x, axis=[C, 2]);\n  return x[1:, C] @;\n';
  const uri = uriOf(path.join(dir, 'broken.accy'));
  s.open(uri, text);
  const doc = { textDocument: { uri } };
  const lines = text.split('\n');
  let answered = 0;
  for (let line = 0; line < lines.length; ++line)
    for (let character = 0; character <= lines[line].length; ++character) {
      const position = { line, character };
      const settle = (p) => p.then(() => ++answered, (e) => {
        // Only a refused rename may fail, and it says why.
        assert.equal(e.code, -32803, e.message);
        ++answered;
      });
      await Promise.all([
        settle(s.request('textDocument/references', { ...doc, position, context: { includeDeclaration: true } })),
        settle(s.request('textDocument/documentHighlight', { ...doc, position })),
        settle(s.request('textDocument/prepareRename', { ...doc, position })),
        settle(s.request('textDocument/rename', { ...doc, position, newName: 'fresh' })),
        settle(s.request('textDocument/selectionRange', { ...doc, positions: [position] })),
      ]);
    }
  await s.request('textDocument/foldingRange', doc);
  await s.request('textDocument/semanticTokens/full', doc);
  assert.ok(answered > 5 * 100);
  s.connection.sendNotification('textDocument/didClose', doc);
});

test('semanticTokens/full/delta answers edits of the previous result', async () => {
  const doc = { textDocument: { uri: modelUri } };
  const full = await s.request('textDocument/semanticTokens/full', doc);
  assert.ok(full.resultId && full.data.length > 0);
  // `return z * y;` becomes `return 2.0 * y;`: a let's token becomes a number's.
  const version = s.change(modelUri, [{ range: { start: { line: 5, character: 9 }, end: { line: 5, character: 10 } }, text: '2.0' }]);
  await s.diagnosticsFor(modelUri, version);
  const delta = await s.request('textDocument/semanticTokens/full/delta', { ...doc, previousResultId: full.resultId });
  assert.notEqual(delta.resultId, full.resultId);
  assert.equal(delta.edits.length, 1);
  const patched = [...full.data];
  for (const e of [...delta.edits].reverse()) patched.splice(e.start, e.deleteCount, ...(e.data ?? []));
  const now = await s.request('textDocument/semanticTokens/full', doc);
  assert.deepEqual(patched, now.data);
  // A result id that is no longer the last one gets the whole data.
  const stale = await s.request('textDocument/semanticTokens/full/delta', { ...doc, previousResultId: full.resultId });
  assert.deepEqual(stale.data, now.data);
  const restore = s.change(modelUri, [{ range: { start: { line: 5, character: 9 }, end: { line: 5, character: 12 } }, text: 'z' }]);
  await s.diagnosticsFor(modelUri, restore);
});
