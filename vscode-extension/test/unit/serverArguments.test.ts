import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverArguments } from '../../src/serverArguments';
import { readSettings, type ConfigurationReader } from '../../src/settings';

/** A configuration like VS Code's: values from settings.json, else the default. */
function configuration(values: Record<string, unknown>): ConfigurationReader {
  return {
    get<T>(section: string, defaultValue: T): T {
      return section in values ? (values[section] as T) : defaultValue;
    },
  };
}

const folder = path.join(os.tmpdir(), 'workspace');

describe('settings to server arguments', () => {
  it('passes nothing when nothing is set, so the server keeps its defaults', () => {
    expect(serverArguments(readSettings(configuration({})), folder)).toEqual([]);
  });

  it('makes -I per include path, resolved from the workspace folder', () => {
    const settings = readSettings(
      configuration({ includePaths: ['include', '/opt/accy/lib', '${workspaceFolder}/third_party', '~/kernels'] }),
    );
    expect(serverArguments(settings, folder)).toEqual([
      '-I', path.join(folder, 'include'),
      '-I', '/opt/accy/lib',
      '-I', path.join(folder, 'third_party'),
      '-I', path.join(os.homedir(), 'kernels'),
    ]);
  });

  it('joins the targets into one --target', () => {
    const settings = readSettings(configuration({ targets: ['host', 'sm_90', 'gfx942'] }));
    expect(serverArguments(settings, folder)).toEqual(['--target', 'host,sm_90,gfx942']);
  });

  it('appends the user arguments last, after the ones made from settings', () => {
    const settings = readSettings(
      configuration({ targets: ['host'], includePaths: ['inc'], 'server.arguments': ['--retained-documents', '5'] }),
    );
    expect(serverArguments(settings, folder)).toEqual([
      '-I', path.join(folder, 'inc'),
      '--target', 'host',
      '--retained-documents', '5',
    ]);
  });

  it('drops blank entries and values of the wrong type', () => {
    const settings = readSettings(
      configuration({ 'server.path': 42, targets: [' sm_90 ', '', 7], includePaths: 'include', 'server.arguments': null }),
    );
    expect(settings).toEqual({ serverPath: '', serverArguments: [], targets: ['sm_90'], includePaths: [] });
    expect(serverArguments(settings, folder)).toEqual(['--target', 'sm_90']);
  });

  it('keeps a relative include path as written when no folder is open', () => {
    const settings = readSettings(configuration({ includePaths: ['include'] }));
    expect(serverArguments(settings, undefined)).toEqual(['-I', 'include']);
  });
});
