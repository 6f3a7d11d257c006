// The bundle as it ships (dist/extension.js, with vscode-languageclient in
// it), activated in the fake editor: when no server can be found, the user
// sees one message and the extension stays quiet until something changes.
import * as fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as vscode from '../fakes/vscode';

type Extension = {
  activate(context: { subscriptions: { dispose(): unknown }[] }): Promise<void>;
  deactivate(): Promise<void>;
};

const bundle = path.join(__dirname, '../../dist/extension.js');
const moduleLoader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = moduleLoader._load;
const originalPath = process.env.PATH;
let emptyDir: string;
let extension: Extension;

beforeAll(() => {
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build first`);
  moduleLoader._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : originalLoad.call(this, request, ...rest);
  };
  extension = createRequire(__filename)(bundle) as Extension;
  emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-activation-'));
});

afterAll(() => {
  moduleLoader._load = originalLoad;
  process.env.PATH = originalPath;
  fs.rmSync(emptyDir, { recursive: true, force: true });
});

beforeEach(async () => {
  await extension.deactivate();
  vscode.editor.reset();
  // Nothing on PATH and no build tree above the workspace folder (nor, on
  // this machine, an installed Accy in /usr/local, /usr or ~/.local).
  process.env.PATH = emptyDir;
  vscode.editor.workspaceFolders = [{ uri: vscode.Uri.file(emptyDir) }];
});

const context = () => ({ subscriptions: [] as { dispose(): unknown }[] });
const notFound = () => vscode.editor.messages.filter((m) => m.text.includes('accy-lsp was not found'));

describe('activation without a server', () => {
  it('registers the commands and shows one warning with a button to the setting', async () => {
    await extension.activate(context());
    expect([...vscode.editor.commands.keys()].sort()).toEqual([
      'accy.restartServer',
      'accy.showStageFingerprints',
      'accy.showStageOutput',
      'accy.showTimeline',
    ]);
    expect(notFound()).toEqual([
      {
        severity: 'warning',
        text: expect.stringContaining(`Looked for accy-lsp on PATH (${emptyDir}), in the install prefixes' bin/`),
        buttons: ['Open Settings'],
      },
    ]);
    expect(vscode.editor.statusItems[0]).toMatchObject({ text: '$(warning) Accy', shown: true });
  });

  it('opens the setting when the button is clicked', async () => {
    vscode.editor.answer = 'Open Settings';
    await extension.activate(context());
    await new Promise((resolve) => setImmediate(resolve));
    expect(vscode.editor.executed).toEqual([['workbench.action.openSettings', 'accy.server.path']]);
  });

  it('names a wrong accy.server.path', async () => {
    vscode.editor.configuration = { 'server.path': '/nowhere/accy-lsp' };
    await extension.activate(context());
    expect(notFound()).toHaveLength(1);
    expect(notFound()[0].text).toContain('"/nowhere/accy-lsp", which is not an executable file');
  });

  it('stays quiet until a server setting changes or the user restarts', async () => {
    await extension.activate(context());
    // Each of these searches again or runs a command, and none may repeat the message.
    vscode.editor.addWorkspaceFolder(path.join(emptyDir, 'other'));
    vscode.editor.changeConfiguration({ 'trace.server': 'verbose' });
    await vscode.editor.commands.get('accy.showStageOutput')!();
    expect(notFound()).toHaveLength(1);
    expect(vscode.editor.messages.at(-1)).toMatchObject({
      severity: 'warning',
      text: 'Accy: the language server is not running.',
    });

    vscode.editor.changeConfiguration({ targets: ['host'] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(notFound()).toHaveLength(2);

    await vscode.editor.commands.get('accy.restartServer')!();
    expect(notFound()).toHaveLength(3);
    expect(vscode.editor.messages.filter((m) => m.severity === 'error')).toEqual([]);
  });
});
