import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultInstallPrefixes, discoverServer } from '../../src/serverDiscovery';

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-discovery-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** Creates `relative` under the temporary root, executable unless told otherwise. */
function file(relative: string, { executable = true, mtime }: { executable?: boolean; mtime?: number } = {}) {
  const full = path.join(root, relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, '#!/bin/sh\n');
  fs.chmodSync(full, executable ? 0o755 : 0o644);
  if (mtime !== undefined) fs.utimesSync(full, mtime, mtime);
  return full;
}

function dir(relative: string) {
  const full = path.join(root, relative);
  fs.mkdirSync(full, { recursive: true });
  return full;
}

const none = { configuredPath: '', pathVariable: '', installPrefixes: [] as string[], workspaceFolders: [] as string[] };

describe('discoverServer', () => {
  it('takes the setting first, even when PATH and a build tree have a server', () => {
    const configured = file('tools/accy-lsp');
    const onPath = file('bin/accy-lsp');
    const repo = dir('repo');
    file('repo/build/lsp/accy-lsp');
    expect(
      discoverServer({ ...none, configuredPath: configured, pathVariable: path.dirname(onPath), workspaceFolders: [repo] }),
    ).toEqual({ found: true, path: configured, source: 'setting' });
  });

  it('resolves a relative setting and ${workspaceFolder} from the first folder', () => {
    const repo = dir('repo');
    const server = file('repo/out/accy-lsp');
    for (const configuredPath of ['out/accy-lsp', '${workspaceFolder}/out/accy-lsp'])
      expect(discoverServer({ ...none, configuredPath, workspaceFolders: [repo] })).toEqual({
        found: true,
        path: server,
        source: 'setting',
      });
  });

  it('reports a setting that is not an executable file instead of searching elsewhere', () => {
    const notExecutable = file('tools/accy-lsp', { executable: false });
    const onPath = file('bin/accy-lsp');
    for (const configuredPath of [notExecutable, path.join(root, 'missing'), path.join(root, 'tools')]) {
      const result = discoverServer({ ...none, configuredPath, pathVariable: path.dirname(onPath) });
      expect(result.found).toBe(false);
      if (!result.found) expect(result.reason).toContain(configuredPath);
    }
  });

  it('searches PATH in order and skips entries that are not executable files', () => {
    const first = dir('a');
    file('b/accy-lsp', { executable: false });
    dir('c/accy-lsp');
    const server = file('d/accy-lsp');
    file('e/accy-lsp');
    const pathVariable = ['', first, path.join(root, 'b'), path.join(root, 'c'), path.dirname(server), path.join(root, 'e')].join(':');
    expect(discoverServer({ ...none, pathVariable })).toEqual({ found: true, path: server, source: 'PATH' });
  });

  it('uses ; and accy-lsp.exe on Windows', () => {
    const server = file('win/accy-lsp.exe');
    file('posix/accy-lsp');
    const pathVariable = `${path.join(root, 'posix')};${path.dirname(server)}`;
    expect(discoverServer({ ...none, pathVariable, platform: 'win32' })).toEqual({
      found: true,
      path: server,
      source: 'PATH',
    });
  });

  it('finds the build tree of the checkout above a workspace folder', () => {
    const server = file('repo/build/lsp/accy-lsp');
    const folder = dir('repo/examples/kernels');
    expect(discoverServer({ ...none, workspaceFolders: [folder] })).toEqual({
      found: true,
      path: server,
      source: 'build directory',
    });
  });

  it('takes any directory with a CMakeCache.txt as a build tree, and the folder itself', () => {
    const server = file('repo/out/release/lsp/accy-lsp');
    file('repo/out/release/CMakeCache.txt', { executable: false });
    expect(discoverServer({ ...none, workspaceFolders: [path.join(root, 'repo/out')] })).toEqual({
      found: true,
      path: server,
      source: 'build directory',
    });
    expect(discoverServer({ ...none, workspaceFolders: [path.join(root, 'repo/out/release')] })).toMatchObject({
      path: server,
    });
  });

  it('ignores lsp/accy-lsp in a directory that is no build tree', () => {
    file('repo/tools/lsp/accy-lsp');
    const result = discoverServer({ ...none, workspaceFolders: [dir('repo')] });
    expect(result.found).toBe(false);
  });

  it('prefers the nearest level, then the most recently built tree', () => {
    file('build/lsp/accy-lsp', { mtime: 3000 });
    file('repo/build-old/lsp/accy-lsp', { mtime: 1000 });
    const newest = file('repo/build-new/lsp/accy-lsp', { mtime: 2000 });
    expect(discoverServer({ ...none, workspaceFolders: [dir('repo/src')] })).toMatchObject({ path: newest });
  });

  it('finds an installed server in bin/ of an install prefix, after PATH and before build trees', () => {
    const installed = file('prefix/bin/accy-lsp');
    file('repo/build/lsp/accy-lsp');
    const input = { ...none, installPrefixes: [dir('empty-prefix'), path.join(root, 'prefix')], workspaceFolders: [dir('repo')] };
    expect(discoverServer(input)).toEqual({ found: true, path: installed, source: 'install prefix' });
    const onPath = file('bin/accy-lsp');
    expect(discoverServer({ ...input, pathVariable: path.dirname(onPath) })).toMatchObject({ source: 'PATH' });
  });

  it('searches the prefixes CMake is pointed at, then the usual ones', () => {
    const env = { CMAKE_PREFIX_PATH: '/opt/accy:/srv/tools' };
    expect(defaultInstallPrefixes(env, '/home/u', 'linux')).toEqual([
      '/opt/accy',
      '/srv/tools',
      '/usr/local',
      '/usr',
      '/home/u/.local',
    ]);
  });

  it('says every place it looked when nothing is found', () => {
    const empty = dir('empty');
    const repo = dir('repo');
    const prefix = dir('prefix');
    const result = discoverServer({ ...none, pathVariable: empty, installPrefixes: [prefix], workspaceFolders: [repo] });
    expect(result.found).toBe(false);
    if (!result.found) {
      expect(result.reason).toContain(`on PATH (${empty})`);
      expect(result.reason).toContain(`bin/ (${path.join(prefix, 'bin')})`);
      expect(result.reason).toContain(`CMake build directory`);
      expect(result.reason).toContain(`(${repo})`);
      expect(result.reason).toContain('accy.server.path');
    }
  });
});
