// Diagnostics of each kind, introduced by an edit after multi-byte and
// astral-plane characters, on the right UTF-16 range; their clearing; and
// versioned publishing that never shows a stale version. Verifier and pass
// failures, which no valid program provokes (f64 exp compiles since
// 170993b), are in faults.test.mjs, made by the ACCY_INJECT_FAULT test hook.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session, inputs, uriOf, positionOf, utf8PositionOf } from './harness.mjs';

const uri = uriOf(path.join(inputs, 'edited.accy'));

// The comment before the expression holds 2-byte (é), 3-byte (€) and
// 4-byte (😀, two UTF-16 units) characters, so UTF-16, UTF-8 and byte
// columns all differ.
const good = 'kernel k(x: f32[N]) -> f32[N] {\n' +
             '  /* é€😀 */ return exp(x) + x;\n' +
             '}\n';

/// Replaces the first `from` by `to`: the change and the new text.
function replace(text, from, to) {
  const start = positionOf(text, from);
  return [{ range: { start, end: { line: start.line, character: start.character + from.length } }, text: to },
          text.replace(from, to)];
}

async function opened(capabilities) {
  const s = new Session();
  await s.initialize(capabilities);
  s.open(uri, good);
  assert.deepEqual((await s.diagnosticsFor(uri, 1)).diagnostics, []);
  return s;
}

/// Edits, waits for the version's diagnostics, checks the one error.
async function expectError(s, change, text, { source, code, at, length }) {
  const version = s.change(uri, [change]);
  const { diagnostics } = await s.diagnosticsFor(uri, version);
  assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
  const [d] = diagnostics;
  assert.equal(d.source, source);
  assert.equal(d.code, code);
  assert.equal(d.severity, 1);
  const start = positionOf(text, at);
  assert.deepEqual(d.range, { start, end: { line: start.line, character: start.character + length } });
  return d;
}

test('a frontend error on its UTF-16 range, pulled as pushed, then cleared', async () => {
  const s = await opened({});
  try {
    // Frontend: an unknown name.
    let [change, text] = replace(good, 'exp(x) + x', 'exp(x) + y');
    const d = await expectError(s, change, text,
      { source: 'accy-frontend', code: 'E0022', at: 'y;', length: 1 });
    assert.match(d.message, /'y'/);

    // Pull diagnostics agree with the pushed ones.
    const pulled = await s.request('textDocument/diagnostic', { textDocument: { uri } });
    assert.equal(pulled.kind, 'full');
    assert.deepEqual(pulled.items, [d]);

    // Cleared when fixed: an empty list for the new version.
    [change, text] = replace(text, 'exp(x) + y', 'exp(x) + x');
    const version = s.change(uri, [change]);
    assert.deepEqual((await s.diagnosticsFor(uri, version)).diagnostics, []);
    assert.deepEqual((await s.request('textDocument/diagnostic', { textDocument: { uri } })).items, []);
  } finally {
    s.kill();
  }
});

test('notes become relatedInformation', async () => {
  const s = await opened({});
  try {
    const text = 'kernel k(x: f32[N]) -> f32[N] {\n  let a = x;\n  let a = x;\n  return a;\n}\n';
    const version = s.change(uri, [{ text }]);
    const { diagnostics } = await s.diagnosticsFor(uri, version);
    const d = diagnostics.find((x) => x.code === 'E0020' || x.code === 'E0021');
    assert.ok(d, JSON.stringify(diagnostics));
    assert.ok(d.relatedInformation?.length >= 1);
    assert.equal(d.relatedInformation[0].location.uri, uri);
    assert.equal(d.relatedInformation[0].location.range.start.line, 1);
  } finally {
    s.kill();
  }
});

test('with UTF-8 negotiated, positions count bytes', async () => {
  const s = await opened({ general: { positionEncodings: ['utf-8', 'utf-16'] } });
  try {
    const text = good.replace('exp(x) + x', 'exp(x) + y');
    const start = utf8PositionOf(good, 'x;');
    const version = s.change(uri, [{ range: { start, end: { line: start.line, character: start.character + 1 } }, text: 'y' }]);
    const { diagnostics } = await s.diagnosticsFor(uri, version);
    assert.equal(diagnostics.length, 1);
    assert.deepEqual(diagnostics[0].range.start, utf8PositionOf(text, 'y;'));
  } finally {
    s.kill();
  }
});

test('a burst of edits publishes only for the newest version', async () => {
  const s = await opened({});
  try {
    let text = good;
    let version;
    // Five edits in one go, each typing one more character of a comment.
    for (const ch of ['é', '😀', 'a', '€', 'b']) {
      const end = positionOf(text, ' */');
      version = s.change(uri, [{ range: { start: end, end }, text: ch }]);
      text = text.replace(' */', ch + ' */');
    }
    const last = await s.diagnosticsFor(uri, version);
    assert.deepEqual(last.diagnostics, []);
    const versions = s.diagnostics.filter((d) => d.uri === uri).map((d) => d.version);
    assert.deepEqual(versions, [1, version], 'no diagnostics for a replaced version');
    const stats = await s.stats(uri);
    assert.equal(stats.version, version);
    // The text the server holds is the one the edits made: the comment is
    // where the client put it, so `exp(x)` hovers at the same UTF-16 column.
    const hover = await s.request('textDocument/hover', { textDocument: { uri }, position: positionOf(text, 'exp(x)') });
    assert.match(hover.contents.value, /f32\[N\]/);
    assert.deepEqual(hover.range.start, positionOf(text, 'exp(x)'));
  } finally {
    s.kill();
  }
});

test('a change of an imported file on disk recompiles the importer', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-lsp-import-'));
  const lib = path.join(dir, 'lib.accy');
  const main = path.join(dir, 'main.accy');
  const mainText = 'import "lib.accy";\nkernel k(x: f32[N]) -> f32[N] {\n  return x * SCALE;\n}\n';
  fs.writeFileSync(lib, 'const SCALE = 2.0;\n');
  fs.writeFileSync(main, mainText);
  const s = new Session();
  try {
    await s.initialize({ workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } });
    const mainUri = uriOf(main);
    s.open(mainUri, mainText);
    assert.deepEqual((await s.diagnosticsFor(mainUri, 1)).diagnostics, []);
    fs.writeFileSync(lib, 'const SCALING = 2.0;\n');
    s.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(lib), type: 2 }] });
    const again = await s.until(() => s.diagnostics.filter((d) => d.uri === mainUri)[1], 'diagnostics after the import changed');
    assert.equal(again.version, 1);
    assert.equal(again.diagnostics.length, 1, JSON.stringify(again));
    assert.equal(again.diagnostics[0].code, 'E0022');
    assert.deepEqual(again.diagnostics[0].range.start, positionOf(mainText, 'SCALE'));
  } finally {
    s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('errors inside imported files land on the open document\'s import, with the place as related information', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-lsp-imported-'));
  const a = path.join(dir, 'a.accy');
  const b = path.join(dir, 'b.accy');
  const c = path.join(dir, 'c.accy');
  // The cycle a -> b -> a, and a bad fn in c (imported by a through b too).
  const aText = '// a: imports b, then c\nconst A = 1.0;\nimport "b.accy";\nimport "c.accy";\n' +
                'kernel k(x: f32[N]) -> f32[N] {\n  return twice(x) * A;\n}\n';
  const bText = '// b\n\nimport "a.accy";\nconst B = 2.0;\n';
  const cText = 'fn twice(x: f32[N]) -> f32[N] {\n  return x * Z;\n}\n';
  fs.writeFileSync(a, aText);
  fs.writeFileSync(b, bText);
  fs.writeFileSync(c, cText);
  const s = new Session();
  try {
    await s.initialize();
    const uri = uriOf(a);
    s.open(uri, aText);
    const { diagnostics } = await s.diagnosticsFor(uri, 1);
    assert.equal(diagnostics.length, 2, JSON.stringify(diagnostics));
    const [cycle, unknown] = diagnostics;
    assert.equal(cycle.code, 'E0025');
    assert.match(cycle.message, /^in .*b\.accy:3: import cycle: /);
    const importOfB = positionOf(aText, '"b.accy"');
    assert.deepEqual(cycle.range, { start: importOfB, end: { line: importOfB.line, character: importOfB.character + '"b.accy"'.length } });
    assert.equal(cycle.relatedInformation[0].location.uri, uriOf(b));
    assert.deepEqual(cycle.relatedInformation[0].location.range.start, positionOf(bText, '"a.accy"'));
    assert.equal(unknown.code, 'E0022');
    assert.match(unknown.message, /^in .*c\.accy:2: unknown name 'Z'/);
    assert.deepEqual(unknown.range.start, positionOf(aText, '"c.accy"'));
    assert.equal(unknown.relatedInformation[0].location.uri, uriOf(c));
    assert.deepEqual(unknown.relatedInformation[0].location.range.start, positionOf(cText, 'Z'));
  } finally {
    s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
