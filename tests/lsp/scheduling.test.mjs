// Checks before code generation: an edit right after opening a large file
// is diagnosed while the file's code is still being generated; many files
// opened at once are all checked before any code is generated, which then
// still completes; an edit drops the queued code generation of the kernels
// it changed, and only theirs. Code generation runs in units of one kernel
// for one target: the server's default targets are host and sm_90.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Session, uriOf, positionOf } from './harness.mjs';
import { kernelFile } from './generated.mjs';

/// The server's default targets: one code generation unit each per kernel.
const kTargets = 2;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-lsp-scheduling-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

function documentOf(name, text) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return uriOf(file);
}

/// The change that makes kernel k{index}'s relu scale `digit`.5.
function scaleChange(text, index, digit) {
  const at = positionOf(text, 'relu(s) * ', index);
  const start = { line: at.line, character: at.character + 'relu(s) * '.length };
  return { range: { start, end: { line: start.line, character: start.character + 1 } }, text: String(digit) };
}

/// { kernel: status } of `stage` in accy/stats.
function statusesAt(stats, stage) {
  return Object.fromEntries(stats.stages.find((st) => st.stage === stage).kernels.map((k) => [k.kernel, k.status]));
}

test('an edit right after opening a 50-kernel file is diagnosed in under 300 ms, before the file\'s code is generated', async () => {
  const text = kernelFile(50);
  const uri = documentOf('fifty.accy', text);
  const s = new Session();
  try {
    await s.initialize();
    s.open(uri, text);
    await s.diagnosticsFor(uri, 1, 120000);
    const sent = performance.now();
    const version = s.change(uri, [scaleChange(text, 40, 9)]);
    const published = await s.diagnosticsFor(uri, version, 60000);
    const ms = performance.now() - sent;
    assert.deepEqual(published.diagnostics, []);
    assert.ok(ms < 300, `the edit's diagnostics took ${ms.toFixed(0)} ms`);
    // It did not wait: the code of most kernels was still to generate.
    const hover = await s.request('textDocument/hover', { textDocument: { uri }, position: positionOf(text, 'k45(') });
    assert.match(hover.contents.value, /\| target \| generating code \|/);
    // Code generation completes afterwards, every kernel once.
    const stats = await s.stats(uri);
    assert.equal(stats.version, version);
    const target = statusesAt(stats, 'target');
    assert.equal(Object.keys(target).length, 50);
    assert.ok(Object.values(target).every((status) => status === 'compiled' || status === 'reused'), JSON.stringify(target));
    assert.equal(stats.codegenUnits.run, 50 * kTargets, 'each kernel once per target: k40\'s units of version 1 were dropped');
    assert.equal(target.k40, 'compiled');
    const filled = await s.request('textDocument/hover', { textDocument: { uri }, position: positionOf(text, 'k40(') });
    assert.match(filled.contents.value, /\| target \| compiled \|/);
  } finally {
    s.kill();
  }
});

test('20 files opened at once are all checked before any code is generated, which then completes', async () => {
  const text = kernelFile(6);
  const uris = [];
  for (let i = 0; i < 20; ++i) uris.push(documentOf(`tab${i}.accy`, text));
  const s = new Session();
  try {
    await s.initialize();
    const start = performance.now();
    for (const uri of uris) s.open(uri, text);
    const diagnosed = () => uris.every((uri) => s.diagnostics.some((d) => d.uri === uri && d.version === 1));
    // Code generation reports its stage on the compile's progress: none
    // may have begun when the last file is diagnosed.
    const generating = () => s.progress.filter((p) => p.value.kind === 'report' && p.value.message === 'target').length;
    let generatingBefore = -1;
    await s.until(() => diagnosed() && ((generatingBefore = generating()), true), 'diagnostics of every file', 10000);
    const ms = performance.now() - start;
    assert.ok(ms < 10000, `all 20 diagnosed after ${ms.toFixed(0)} ms`);
    assert.equal(generatingBefore, 0, 'no code generation before every file was checked');
    // Code generation then completes, for documents that keep their
    // products and for those that released them (3 are kept).
    for (const uri of [uris[uris.length - 1], uris[0]]) {
      const stats = await s.stats(uri);
      const target = statusesAt(stats, 'target');
      assert.equal(Object.keys(target).length, 6);
      assert.ok(Object.values(target).every((status) => status === 'compiled'), JSON.stringify(target));
      const hover = await s.request('textDocument/hover', { textDocument: { uri }, position: positionOf(text, 'k2(') });
      assert.match(hover.contents.value, /\| target \| compiled \|/);
    }
  } finally {
    s.kill();
  }
});

test('an edit drops the queued code generation of the kernel it changed, and keeps the others', async () => {
  const text = kernelFile(6);
  const uri = documentOf('six.accy', text);
  const s = new Session();
  try {
    await s.initialize();
    s.open(uri, text);
    await s.diagnosticsFor(uri, 1);
    // Code generation of the six kernels runs in order; the last one is
    // still queued when this edit is checked.
    const version = s.change(uri, [scaleChange(text, 5, 9)]);
    await s.diagnosticsFor(uri, version);
    const stats = await s.stats(uri);
    assert.equal(stats.version, version);
    assert.equal(stats.codegenUnits.dropped, kTargets, JSON.stringify(stats.codegenUnits));
    assert.ok(stats.codegenUnits.kept >= 1, JSON.stringify(stats.codegenUnits));
    // Each unchanged kernel's code was generated once, the edited one once
    // (for its new version), for each target: the dropped units never ran.
    assert.equal(stats.codegenUnits.run, 6 * kTargets, JSON.stringify(stats.codegenUnits));
    const target = statusesAt(stats, 'target');
    assert.equal(target.k5, 'compiled');
  } finally {
    s.kill();
  }
});
