// Fault containment: an internal failure inside a pass (a failure it
// signals, IR it leaves that does not verify, a crash, a fatal error),
// injected with the ACCY_INJECT_FAULT test hook
// (core/include/accy/Support/CrashContainment.h), becomes a diagnostic naming
// the stage (`source`) and the pass (`code`), and the server keeps serving
// that document and the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session, inputs, uriOf, positionOf } from './harness.mjs';

const examples = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'kernels');
const twoKernels = path.join(inputs, 'two-kernels.accy');   // mlp, softmax
const mlp = path.join(examples, 'mlp.accy');                // mlp, gelu_mlp
const elementwise = path.join(examples, 'elementwise.accy'); // 3 kernels

/// A server started with ACCY_INJECT_FAULT=`fault` (read once, at start).
async function faultySession(fault, args = []) {
  process.env.ACCY_INJECT_FAULT = fault;
  try {
    const s = new Session(args);
    await s.initialize();
    return s;
  } finally {
    delete process.env.ACCY_INJECT_FAULT;
  }
}

function openFile(s, file) {
  const uri = uriOf(file);
  const text = fs.readFileSync(file, 'utf8');
  s.open(uri, text);
  return { uri, text };
}

/// The one diagnostic of `kernel` in `diagnostics`.
function of(diagnostics, kernel) {
  const found = diagnostics.filter((d) => d.message.includes(`kernel '${kernel}'`));
  assert.equal(found.length, 1, JSON.stringify(diagnostics));
  return found[0];
}

test('a pass that crashes on one kernel: an internal failure naming stage and pass; other kernels, documents and requests go on', async () => {
  const s = await faultySession('accy-choir-form-dispatches:crash:softmax');
  try {
    const a = openFile(s, twoKernels);
    const b = openFile(s, mlp);
    const { diagnostics } = await s.diagnosticsFor(a.uri, 1, 60000);
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
    const d = of(diagnostics, 'softmax');
    assert.equal(d.source, 'accy-choir-dispatch');
    assert.equal(d.code, 'accy-choir-form-dispatches');
    assert.equal(d.severity, 1);
    assert.match(d.message, /internal compiler error \(signal 11 .*\) while running 'accy-choir-form-dispatches'.*internal failure in kernel 'softmax'/);
    assert.equal(d.range.start.line, positionOf(a.text, 'kernel softmax').line);
    // The other document compiles through every stage.
    assert.deepEqual((await s.diagnosticsFor(b.uri, 1, 60000)).diagnostics, []);
    // The crashed document still answers, from the frontend and from the
    // stages: the stage table shows where it failed.
    const stats = await s.stats(a.uri);
    assert.ok(JSON.stringify(stats).includes('failed'), JSON.stringify(stats));
    const symbols = await s.request('textDocument/documentSymbol', { textDocument: { uri: a.uri } });
    assert.ok(symbols.length >= 2);
    const hover = await s.request('textDocument/hover',
      { textDocument: { uri: a.uri }, position: positionOf(a.text, 'mlp(') });
    assert.ok(hover, 'a hover on the kernel that compiled');
    // Renaming the kernel the fault targets: the next version is clean.
    const at = positionOf(a.text, 'softmax(x');
    const version = s.change(a.uri, [{ range: { start: at, end: { line: at.line, character: at.character + 7 } }, text: 'soft2' }]);
    assert.deepEqual((await s.diagnosticsFor(a.uri, version, 60000)).diagnostics, []);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('a fatal error (llvm::report_fatal_error) in a pass, on every kernel at once: internal failures, the server lives', async () => {
  const s = await faultySession('accy-choir-plan-buffers:fatal');
  try {
    const a = openFile(s, twoKernels);
    const { diagnostics } = await s.diagnosticsFor(a.uri, 1, 60000);
    assert.equal(diagnostics.length, 2, JSON.stringify(diagnostics));
    for (const kernel of ['mlp', 'softmax']) {
      const d = of(diagnostics, kernel);
      assert.equal(d.source, 'accy-choir-memory');
      assert.equal(d.code, 'accy-choir-plan-buffers');
      assert.match(d.message, /internal compiler error \(fatal error: ACCY_INJECT_FAULT: 'accy-choir-plan-buffers'\)/);
    }
    // Again, on the next version: recovery is not once only.
    const version = s.change(a.uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// edited\n' }]);
    assert.equal((await s.diagnosticsFor(a.uri, version, 60000)).diagnostics.length, 2);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('a pass that leaves IR that does not verify: one verifier failure naming stage and pass, on the kernel\'s UTF-16 range, then cleared', async () => {
  const s = await faultySession('accy-choir-reduction-lower:invalid:broken');
  try {
    // 2-, 3- and 4-byte characters (😀 is two UTF-16 units) before the
    // kernel's name, so UTF-16 and byte columns differ.
    const text = '/* é€😀 */ kernel broken(x: f32[N, D]) -> f32[N] {\n  return max(x, axis=1);\n}\n' +
                 'kernel fine(x: f32[N, D]) -> f32[N] {\n  return max(x, axis=1);\n}\n';
    const uri = uriOf(path.join(inputs, 'invalid.accy'));
    s.open(uri, text);
    const { diagnostics } = await s.diagnosticsFor(uri, 1, 60000);
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
    const d = of(diagnostics, 'broken');
    assert.equal(d.source, 'accy-choir-tensor');
    assert.equal(d.code, 'accy-choir-reduction-lower');
    assert.equal(d.severity, 1);
    assert.match(d.message, /^'builtin\.unrealized_conversion_cast' expected at least one result for cast operation \(verifier failure in kernel 'broken'\)$/);
    const at = positionOf(text, 'broken');
    assert.deepEqual(d.range, { start: at, end: { line: at.line, character: at.character + 'broken'.length } });
    // Renamed, the kernel is no longer the fault's: the next version is clean.
    const version = s.change(uri, [{ text: text.replace('broken', 'mended') }]);
    assert.deepEqual((await s.diagnosticsFor(uri, version, 60000)).diagnostics, []);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('a pass failure in the target stage, after the checked program was published: published again on its UTF-16 range, pulled as pushed, then cleared', async () => {
  const s = await faultySession('accy-legalize-math:fail:k');
  try {
    const text = '/* é€😀 */ kernel k(x: f64[N]) -> f64[N] {\n  return exp(x);\n}\n';
    const uri = uriOf(path.join(inputs, 'target-failure.accy'));
    s.open(uri, text);
    // The diagnostics of the checked program come first (none), then those
    // of code generation, for the same version.
    const ofVersion1 = () => s.diagnostics.filter((p) => p.uri === uri && p.version === 1);
    const published = await s.until(() => ofVersion1().find((p) => p.diagnostics.length),
                                    'the target stage\'s diagnostics', 60000);
    assert.deepEqual(ofVersion1().map((p) => p.diagnostics.length), [0, 1]);
    const [d] = published.diagnostics;
    assert.equal(d.source, 'accy-choir-target');
    assert.equal(d.code, 'accy-legalize-math');
    assert.match(d.message, /^ACCY_INJECT_FAULT: 'accy-legalize-math' fails \(pass failure in kernel 'k'\)$/);
    const at = positionOf(text, 'k(');
    assert.deepEqual(d.range, { start: at, end: { line: at.line, character: at.character + 1 } });
    const pulled = await s.request('textDocument/diagnostic', { textDocument: { uri } });
    assert.equal(pulled.kind, 'full');
    assert.deepEqual(pulled.items, published.diagnostics);
    // Renamed, the kernel is no longer the fault's: cleared, pushed and pulled.
    const version = s.change(uri, [{ text: text.replace('k(', 'k2(') }]);
    assert.deepEqual((await s.diagnosticsFor(uri, version, 60000)).diagnostics, []);
    assert.deepEqual((await s.request('textDocument/diagnostic', { textDocument: { uri } })).items, []);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('abort() in a pass (what a failed assert does): an internal failure, the server lives', async () => {
  const s = await faultySession('accy-choir-einsum-lower:abort:mlp');
  try {
    const a = openFile(s, twoKernels);
    const { diagnostics } = await s.diagnosticsFor(a.uri, 1, 60000);
    assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
    const d = of(diagnostics, 'mlp');
    assert.equal(d.source, 'accy-choir-tensor');
    assert.equal(d.code, 'accy-choir-einsum-lower');
    assert.match(d.message, /internal compiler error \(signal 6 .*\) while running 'accy-choir-einsum-lower'/);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('a crash in the target stage (after the checked program was published): published again, naming it', async () => {
  const s = await faultySession('accy-serialize:crash:softmax');
  try {
    const a = openFile(s, twoKernels);
    await s.diagnosticsFor(a.uri, 1, 60000);
    // accy/stats answers once code generation ran; the last publication of
    // the version is then final.
    await s.stats(a.uri);
    const last = [...s.diagnostics].reverse().find((d) => d.uri === a.uri);
    assert.equal(last.version, 1);
    const d = of(last.diagnostics, 'softmax');
    assert.equal(d.source, 'accy-choir-target');
    assert.equal(d.code, 'accy-serialize');
    assert.match(d.message, /internal compiler error \(signal 11 .*\) while running 'accy-serialize'/);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('a crash or a fatal error in LLVM code generation (a task on a thread of the pool): an internal failure per target, the server lives', async () => {
  for (const [mode, reason] of [['crash', /signal 11 /], ['fatal', /fatal error: ACCY_INJECT_FAULT: 'codegen'/]]) {
    const s = await faultySession(`codegen:${mode}:softmax`, ['--target', 'host,sm_90,gfx942']);
    try {
      const a = openFile(s, twoKernels);
      const b = openFile(s, mlp);
      for (let version = 1; version <= 3; ++version) {
        if (version > 1)
          s.change(a.uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: `// ${version}\n` }]);
        await s.diagnosticsFor(a.uri, version, 60000);
        // accy/stats answers once code generation ran: the last publication
        // of the version is then final.
        await s.stats(a.uri);
        const last = [...s.diagnostics].reverse().find((d) => d.uri === a.uri);
        assert.equal(last.version, version);
        const targets = last.diagnostics.map((d) => {
          assert.equal(d.source, 'accy-choir-target');
          assert.equal(d.code, 'accy-serialize');
          assert.match(d.message, /kernel 'softmax'/);
          assert.match(d.message, reason);
          return d.message.match(/internal compiler error \(.*\) in LLVM code generation for (\S+)/)[1];
        });
        assert.deepEqual(targets.sort(), ['gfx942', 'host', 'sm_90'], JSON.stringify(last.diagnostics));
      }
      // The other document's kernels compile through every stage.
      await s.stats(b.uri);
      const lastB = [...s.diagnostics].reverse().find((d) => d.uri === b.uri);
      assert.deepEqual(lastB.diagnostics, []);
      assert.equal(await s.shutdownAndExit(), 0);
    } finally {
      s.kill();
    }
  }
});

test('a pass that signals failure: a pass failure naming stage and pass', async () => {
  const s = await faultySession('accy-choir-saturate:fail:mlp');
  try {
    const a = openFile(s, twoKernels);
    const { diagnostics } = await s.diagnosticsFor(a.uri, 1, 60000);
    const d = of(diagnostics, 'mlp');
    assert.equal(d.source, 'accy-choir-contract');
    assert.equal(d.code, 'accy-choir-saturate');
    assert.match(d.message, /ACCY_INJECT_FAULT: 'accy-choir-saturate' fails \(pass failure in kernel 'mlp'\)/);
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});

test('a crash in a nested pass (one task of a parallel loop over functions) is contained too, edit after edit', async () => {
  const s = await faultySession('convert-parallel-loops-to-gpu:crash', ['--target', 'host,sm_90,gfx942']);
  try {
    const a = openFile(s, elementwise);
    const b = openFile(s, mlp);
    let { diagnostics } = await s.diagnosticsFor(a.uri, 1, 60000);
    assert.equal(diagnostics.length, 3, JSON.stringify(diagnostics));
    for (const kernel of ['swish_scale', 'stats', 'softplus']) {
      const d = of(diagnostics, kernel);
      assert.equal(d.source, 'accy-choir-kernel');
      assert.equal(d.code, 'convert-parallel-loops-to-gpu');
      assert.match(d.message, /internal compiler error \(signal/);
    }
    assert.equal((await s.diagnosticsFor(b.uri, 1, 60000)).diagnostics.length, 2);
    let text = a.text;
    for (let i = 0; i < 5; ++i) {
      const version = s.change(a.uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: `// ${i}\n` }]);
      text = `// ${i}\n` + text;
      ({ diagnostics } = await s.diagnosticsFor(a.uri, version, 60000));
      assert.equal(diagnostics.length, 3, JSON.stringify(diagnostics));
    }
    assert.equal(await s.shutdownAndExit(), 0);
  } finally {
    s.kill();
  }
});
