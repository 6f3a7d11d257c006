// textDocument/formatting and rangeFormatting through a real client: the
// edits, applied, give exactly what `accy-format` prints (also after a
// non-ASCII comment, where UTF-16 and byte columns differ); a range lays
// out only the items it touches; a document that does not parse gets no
// edit and the server goes on answering.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Session, applyEdits } from './harness.mjs';

const formatter = process.env.ACCY_FORMAT;
const messy = [
  '// Größe: naïve 🙂 comment',
  '/* é 🙂 */ const   SCALE=2.0;',
  'kernel a(x:f32[N])->f32[N]{return x*SCALE;}',
  '',
  '',
  'kernel b(y: f32[N]) -> f32[N]{ let z = y+1.0 ; return z; }',
  '',
].join('\n');
let s;

const accyFormat = (text) => execFileSync(formatter, ['-'], { input: text, encoding: 'utf8' });

before(async () => {
  assert.ok(formatter, 'ACCY_FORMAT names the accy-format binary');
  s = new Session(['--target', 'host']);
  const init = await s.initialize();
  assert.equal(init.capabilities.documentFormattingProvider, true);
  assert.equal(init.capabilities.documentRangeFormattingProvider, true);
});
after(() => s.kill());

test('formatting gives what accy-format prints, and then nothing more to do', async () => {
  const uri = 'file:///formatting/whole.accy';
  s.open(uri, messy);
  const edits = await s.request('textDocument/formatting',
    { textDocument: { uri }, options: { tabSize: 8, insertSpaces: true } });
  assert.equal(edits.length, 1);
  // The first change is after the non-ASCII comment on line 1: UTF-16.
  const afterConst = messy.split('\n')[1].indexOf('const') + 'const '.length;
  assert.deepEqual(edits[0].range.start, { line: 1, character: afterConst });
  const formatted = applyEdits(messy, edits);
  assert.equal(formatted, accyFormat(messy));
  assert.match(formatted, /^kernel a\(x: f32\[N\]\) -> f32\[N\] \{\n  return x \* SCALE;\n\}$/m);
  s.change(uri, [{ text: formatted }]);
  assert.deepEqual(await s.request('textDocument/formatting',
    { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }), []);
});

test('rangeFormatting lays out only the items the range touches', async () => {
  const uri = 'file:///formatting/range.accy';
  s.open(uri, messy);
  const line = 5; // kernel b
  const edits = await s.request('textDocument/rangeFormatting', {
    textDocument: { uri },
    range: { start: { line, character: 10 }, end: { line, character: 12 } },
    options: { tabSize: 2, insertSpaces: true },
  });
  const result = applyEdits(messy, edits);
  const lines = result.split('\n');
  assert.deepEqual(lines.slice(0, 3), messy.split('\n').slice(0, 3), 'the const and kernel a stay as written');
  assert.equal(lines.slice(5).join('\n'),
    'kernel b(y: f32[N]) -> f32[N] {\n  let z = y + 1.0;\n  return z;\n}\n');
  // A range over the comment alone touches no item.
  assert.deepEqual(await s.request('textDocument/rangeFormatting', {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
    options: { tabSize: 2, insertSpaces: true },
  }), []);
});

test('a document that does not parse gets no edit, and the server goes on', async () => {
  const uri = 'file:///formatting/broken.accy';
  const broken = 'kernel k(x: f32[N]) -> f32[N] {\n  let y = (x +;\n  return   y;\n}\n';
  s.open(uri, broken);
  assert.deepEqual(await s.request('textDocument/formatting',
    { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }), []);
  assert.deepEqual(await s.request('textDocument/rangeFormatting', {
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 3, character: 1 } },
    options: { tabSize: 2, insertSpaces: true },
  }), []);
  const diagnostics = await s.diagnosticsFor(uri, 1);
  assert.ok(diagnostics.diagnostics.some((d) => d.code === 'E0010'));
  const symbols = await s.request('textDocument/documentSymbol', { textDocument: { uri } });
  assert.ok(Array.isArray(symbols));
});
