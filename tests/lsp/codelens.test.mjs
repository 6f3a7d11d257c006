// Code lenses on kernels: what the last compile did with each (its time,
// the stages reused), a lens that opens its stage output, and a refresh
// request after each compile to clients that support one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Session, inputs, uriOf, positionOf } from './harness.mjs';

const file = path.join(inputs, 'two-kernels.accy');
const text = fs.readFileSync(file, 'utf8');
const uri = uriOf(file);
const REUSED_ALL = 'reused: contract, tensor, dispatch, memory, kernel, target';

function codeLenses(s) {
  return s.request('textDocument/codeLens', { textDocument: { uri } });
}

/// { kernel: [status lens, stage output lens] } keyed by the lenses' position.
function byKernel(lenses) {
  const out = {};
  for (const [kernel, needle] of [['mlp', 'mlp('], ['softmax', 'softmax(']]) {
    const at = positionOf(text, needle);
    out[kernel] = lenses.filter((l) => l.range.start.line === at.line &&
                                       l.range.start.character === at.character);
  }
  return out;
}

test('each kernel has a lens with its last compile, and one that opens its stage output', async () => {
  const s = new Session();
  try {
    const init = await s.initialize();
    assert.deepEqual(init.capabilities.codeLensProvider, { resolveProvider: false });
    s.open(uri, text);
    await s.diagnosticsFor(uri, 1);
    await s.stats(uri); // code generation finished
    const lenses = await codeLenses(s);
    assert.equal(lenses.length, 4, 'two lenses per kernel');
    const first = byKernel(lenses);
    for (const kernel of ['mlp', 'softmax']) {
      const [status, output] = first[kernel];
      assert.match(status.command.title, /^compiled in \d+\.\d ms$/, `${kernel} compiled in every stage`);
      assert.equal(status.command.command, 'accy.showTimeline');
      assert.deepEqual(status.command.arguments, [uri]);
      assert.deepEqual(output.command, {
        title: 'Show stage output', command: 'accy.showStageOutput', arguments: [uri, kernel],
      });
      const nameEnd = { line: status.range.start.line, character: status.range.start.character + kernel.length };
      assert.deepEqual(status.range.end, nameEnd, 'the lens sits on the kernel name');
    }

    // An edit inside softmax: it compiles again, mlp is reused at every stage.
    const at = positionOf(text, 'exp(x - m)');
    const v2 = s.change(uri, [{ range: { start: at, end: { line: at.line, character: at.character + 'exp(x - m)'.length } }, text: 'exp((x - m) * 0.5)' }]);
    assert.deepEqual((await s.diagnosticsFor(uri, v2)).diagnostics, []);
    await s.stats(uri);
    const second = byKernel(await codeLenses(s));
    assert.match(second.softmax[0].command.title, /^compiled in \d+\.\d ms$/);
    assert.equal(second.mlp[0].command.title, REUSED_ALL);
  } finally {
    s.kill();
  }
});

test('a compile ends with workspace/codeLens/refresh when the client supports it, and not otherwise', async () => {
  for (const refreshSupport of [true, false]) {
    const s = new Session();
    let refreshes = 0;
    let afterRefresh;
    s.connection.onRequest('workspace/codeLens/refresh', () => {
      ++refreshes;
      // As an editor does: ask for the lenses again.
      afterRefresh = codeLenses(s);
      s.wake();
      return null;
    });
    try {
      await s.initialize({ workspace: { codeLens: { refreshSupport } } });
      s.open(uri, text);
      await s.diagnosticsFor(uri, 1);
      await s.until(() => s.progress.some((p) => p.value?.kind === 'end' && p.token !== 'workspace-index'),
        'the end of the compile');
      // Anything sent with the compile's end arrives before this answer.
      await s.request('textDocument/documentSymbol', { textDocument: { uri } });
      if (!refreshSupport) {
        assert.equal(refreshes, 0, 'no refresh to a client that did not announce refreshSupport');
        continue;
      }
      await s.until(() => refreshes > 0, 'a refresh request');
      const lenses = byKernel(await afterRefresh);
      assert.match(lenses.mlp[0].command.title, /^compiled in \d+\.\d ms$/,
        'the lenses asked for after the refresh show the finished compile');
    } finally {
      s.kill();
    }
  }
});
