// Per-kernel reuse, observed through accy/stats: after an edit inside one
// kernel only that kernel is compiled again after `semantic`; after a
// comment edit no kernel is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Session, inputs, uriOf, positionOf, kernelStatuses as statuses } from './harness.mjs';

const LATER_STAGES = ['contract', 'tensor', 'dispatch', 'memory', 'kernel', 'target'];

test('an edit in one kernel recompiles only that kernel; a comment edit recompiles none', async () => {
  const file = path.join(inputs, 'two-kernels.accy');
  const text = fs.readFileSync(file, 'utf8');
  const uri = uriOf(file);
  const s = new Session();
  try {
    await s.initialize();
    s.open(uri, text);
    await s.diagnosticsFor(uri, 1);
    const first = statuses(await s.stats(uri));
    for (const stage of LATER_STAGES) {
      assert.equal(first.mlp[stage], 'compiled', `first compile of mlp at ${stage}`);
      assert.equal(first.softmax[stage], 'compiled', `first compile of softmax at ${stage}`);
    }

    // Inside softmax: keepdims of the max stays, the exp gets a scale.
    const at = positionOf(text, 'exp(x - m)');
    const v2 = s.change(uri, [{ range: { start: at, end: { line: at.line, character: at.character + 'exp(x - m)'.length } }, text: 'exp((x - m) * 0.5)' }]);
    assert.deepEqual((await s.diagnosticsFor(uri, v2)).diagnostics, []);
    const stats2 = await s.stats(uri);
    assert.equal(stats2.version, v2);
    const second = statuses(stats2);
    for (const stage of LATER_STAGES) {
      assert.equal(second.mlp[stage], 'reused', `mlp at ${stage} after an edit in softmax`);
      assert.equal(second.softmax[stage], 'compiled', `softmax at ${stage} after its edit`);
    }

    // A comment: every product after semantic is reused.
    const v3 = s.change(uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '// a comment 😀 that changes nothing\n' }]);
    assert.deepEqual((await s.diagnosticsFor(uri, v3)).diagnostics, []);
    const stats3 = await s.stats(uri);
    assert.equal(stats3.version, v3);
    const third = statuses(stats3);
    for (const stage of LATER_STAGES)
      for (const kernel of ['mlp', 'softmax'])
        assert.equal(third[kernel][stage], 'reused', `${kernel} at ${stage} after a comment edit`);
    assert.equal(stats3.stages.find((st) => st.stage === 'target').passRuns, 0,
      'no pass of the target stage ran');
  } finally {
    s.kill();
  }
});

test('documents beyond --retained-documents release their products and compile again when asked for them', async () => {
  const file = path.join(inputs, 'two-kernels.accy');
  const text = fs.readFileSync(file, 'utf8');
  const first = uriOf(file);
  const second = uriOf(path.join(inputs, 'second.accy'));
  const s = new Session(['--retained-documents', '1']);
  try {
    await s.initialize();
    s.open(first, text);
    await s.diagnosticsFor(first, 1);
    assert.ok((await s.stats(first)).cachedProducts > 0);
    s.open(second, text);
    await s.diagnosticsFor(second, 1);
    const released = await s.stats(first);
    assert.equal(released.cachedProducts, 0, 'the older document released its products');
    assert.equal(released.compiles.finished, 1);
    // Its stage table needs only records: no compile.
    const hover = await s.request('textDocument/hover', { textDocument: { uri: first }, position: positionOf(text, 'mlp(') });
    assert.match(hover.contents.value, /\| target \| compiled \|/);
    assert.equal((await s.stats(first)).compiles.finished, 1);
    // Its IR needs the products: it compiles again, every kernel.
    const ir = await s.request('accy/stageOutput', { uri: first, kernel: 'mlp', stage: 'memory' });
    assert.match(ir.text, /module @mlp/);
    const again = await s.stats(first);
    assert.equal(again.compiles.finished, 2);
    assert.ok(again.cachedProducts > 0);
    assert.equal((await s.stats(second)).cachedProducts, 0, 'and the other one released its own');
  } finally {
    s.kill();
  }
});

// A request that prints a product (here the memory stage) reads the
// context's loaded dialects while the target stage of the same compile may
// still run in that context. Dialects are loaded when a context is made,
// so nothing loads one meanwhile; this sequence (a released document asked
// for its IR: a fresh context, checked, then printed while its code is
// generated) crashed the server about one time in three under load before.
test('printing a released document\'s IR while its code generation runs, again and again', async () => {
  const file = path.join(inputs, 'two-kernels.accy');
  const text = fs.readFileSync(file, 'utf8');
  const first = uriOf(file);
  const second = uriOf(path.join(inputs, 'second.accy'));
  const s = new Session(['--retained-documents', '1']);
  try {
    await s.initialize();
    s.open(first, text);
    await s.diagnosticsFor(first, 1);
    s.open(second, text);
    await s.diagnosticsFor(second, 1);
    for (let round = 0; round < 8; ++round) {
      // Asking for the released document's IR compiles it again (in a
      // fresh context) and releases the other one.
      const asked = round % 2 === 0 ? first : second;
      const before = (await s.stats(asked)).compiles.finished;
      const ir = await s.request('accy/stageOutput', { uri: asked, kernel: 'mlp', stage: 'memory' });
      assert.match(ir.text, /module @mlp/);
      assert.equal((await s.stats(asked)).compiles.finished, before + 1, `round ${round}: compiled again`);
    }
    assert.equal(s.process.exitCode, null, 'the server is still running');
  } finally {
    s.kill();
  }
});
