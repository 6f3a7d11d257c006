// The team's cache in the editor: kernels CI compiled into a remote cache
// (nginx with WebDAV on loopback, tests/remote/servers.py) open in accy-lsp
// with an empty local store and generate no code: the target products come
// from the remote, and land in the local store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session, inputs, uriOf, kernelStatuses as statuses } from './harness.mjs';

const accyc = process.env.ACCYC;
const servers = process.env.ACCY_REMOTE_SERVERS;

/// Entries of the local store's target stage.
function targetEntries(store) {
  const dir = fs.readdirSync(store).map((schema) => path.join(store, schema, 'target'))
    .find((d) => fs.existsSync(d));
  if (!dir) return 0;
  return fs.readdirSync(dir).reduce((n, sub) => n + fs.readdirSync(path.join(dir, sub)).length, 0);
}

test('kernels in the remote cache open without code generation', async () => {
  assert.ok(accyc && servers, 'ACCYC and ACCY_REMOTE_SERVERS are set');
  const urls = JSON.parse(fs.readFileSync(path.join(servers, 'nginx', 'urls.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-lsp-remote-'));
  try {
    for (const name of ['two-kernels.accy', 'helpers.accy'])
      fs.copyFileSync(path.join(inputs, name), path.join(dir, name));
    const file = path.join(dir, 'two-kernels.accy');
    const text = fs.readFileSync(file, 'utf8');
    // "CI": its own local store, writing through to the remote.
    execFileSync(accyc, ['build', file, '-o', path.join(dir, 'ci'),
      '--cache-dir', path.join(dir, 'ci-store'), '--remote-cache', urls.write]);

    const local = path.join(dir, 'editor-store');
    process.env.ACCY_REMOTE_CACHE = urls.read + '|read-only';
    const s = new Session(['--cache-dir', local]);
    delete process.env.ACCY_REMOTE_CACHE;
    try {
      await s.initialize();
      const uri = uriOf(file);
      s.open(uri, text);
      await s.diagnosticsFor(uri, 1);
      const opened = await s.stats(uri);
      assert.equal(opened.codegenUnits.run, 0, 'no code generated: ' + JSON.stringify(opened.codegenUnits));
      const kernels = statuses(opened);
      for (const kernel of ['mlp', 'softmax'])
        assert.equal(kernels[kernel].target, 'stored', `${kernel} at target: ${JSON.stringify(kernels[kernel])}`);
      assert.ok(targetEntries(local) >= 1, 'the remote entry is kept in the local store');
      await s.shutdownAndExit();
    } finally {
      s.kill();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
