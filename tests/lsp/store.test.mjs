// The kernel store shared by accyc and accy-lsp: a file built with accyc
// opens in the editor with every stored stage's kernels from the store and
// no code generated; the editor's edit stores what it compiled, and accyc
// builds the edited file from the store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session, inputs, uriOf, positionOf, kernelStatuses as statuses } from './harness.mjs';

const accyc = process.env.ACCYC;
const STORED_STAGES = ['memory', 'kernel', 'target'];

/// accyc build's --timing row of `stage`.
function timingRow(output, stage) {
  return output.split('\n').find((line) => line.startsWith(stage + ' ')) ?? '';
}

test('a build\'s store opens in the editor without code generation, and the editor\'s edit is stored for the next build', async () => {
  assert.ok(accyc, 'ACCYC names accyc');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-lsp-store-'));
  try {
    const store = path.join(dir, 'store');
    for (const name of ['two-kernels.accy', 'helpers.accy'])
      fs.copyFileSync(path.join(inputs, name), path.join(dir, name));
    const file = path.join(dir, 'two-kernels.accy');
    const text = fs.readFileSync(file, 'utf8');
    const build = (out) => execFileSync(accyc, ['build', file, '-o', path.join(dir, out),
      '--cache-dir', store, '--timing'], { encoding: 'utf8' });
    build('first');

    const uri = uriOf(file);
    const s = new Session(['--cache-dir', store]);
    try {
      await s.initialize();
      s.open(uri, text);
      await s.diagnosticsFor(uri, 1);
      const opened = await s.stats(uri);
      const first = statuses(opened);
      for (const kernel of ['mlp', 'softmax']) {
        for (const stage of STORED_STAGES)
          assert.equal(first[kernel][stage], 'stored', `${kernel} at ${stage}`);
        assert.equal(first[kernel].dispatch, 'compiled', 'dispatch is not stored');
      }
      assert.equal(opened.codegenUnits.run, 0, 'no code generated: ' + JSON.stringify(opened.codegenUnits));
      const hover = await s.request('textDocument/hover', { textDocument: { uri }, position: positionOf(text, 'softmax(') });
      assert.match(hover.contents.value, /\| target \| stored \|/);
      // The kernels' code lenses say which stages came from the store.
      const lenses = await s.request('textDocument/codeLens', { textDocument: { uri } });
      const titles = lenses.map((l) => l.command.title).filter((t) => t !== 'Show stage output');
      assert.equal(titles.length, 2);
      for (const title of titles)
        assert.match(title, /^compiled in \d+\.\d ms · stored: memory, kernel, target$/);

      // An edit inside softmax compiles softmax alone, and stores it.
      const at = positionOf(text, 'exp(x - m)');
      const edited = text.replace('exp(x - m)', 'exp((x - m) * 0.5)');
      const v2 = s.change(uri, [{ range: { start: at, end: { line: at.line, character: at.character + 'exp(x - m)'.length } }, text: 'exp((x - m) * 0.5)' }]);
      assert.deepEqual((await s.diagnosticsFor(uri, v2)).diagnostics, []);
      const second = statuses(await s.stats(uri));
      for (const stage of STORED_STAGES) {
        assert.equal(second.softmax[stage], 'compiled', `softmax at ${stage} after its edit`);
        assert.equal(second.mlp[stage], 'reused', `mlp at ${stage}`);
      }
      await s.shutdownAndExit();
      fs.writeFileSync(file, edited);
    } finally {
      s.kill();
    }

    // accyc finds every kernel of the edited file in the store, softmax's
    // target product too (joined from the editor's units, one per target).
    const timing = build('second');
    for (const stage of STORED_STAGES)
      assert.match(timingRow(timing, stage), /\b2 stored\b/, `${stage}: ${timingRow(timing, stage)}`);
    // Byte-identical to a build without the store.
    execFileSync(accyc, ['build', file, '-o', path.join(dir, 'cold'), '--no-cache']);
    for (const out of fs.readdirSync(path.join(dir, 'cold')).filter((f) => !f.endsWith('.json')))
      assert.ok(fs.readFileSync(path.join(dir, 'second', out)).equals(fs.readFileSync(path.join(dir, 'cold', out))), out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
