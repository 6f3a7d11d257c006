// code-server (VS Code's server and its web workbench) in a temporary
// directory of its own: its user data, extensions, configuration and data
// (XDG_CONFIG_HOME, XDG_DATA_HOME) all lie there, so a run neither reads nor
// writes the user's. The packaged extension is installed with code-server's
// own --install-extension, as a user would.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The environment of code-server and so of the extension host and accy-lsp. */
function environment(dir, extra) {
  return {
    ...process.env,
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    ...extra,
  };
}

function commonArguments(dir) {
  return [
    '--config', path.join(dir, 'config.yaml'),
    '--user-data-dir', path.join(dir, 'user-data'),
    '--extensions-dir', path.join(dir, 'extensions'),
  ];
}

export class CodeServer {
  /**
   * `home` is the installed code-server package, `dir` a temporary directory
   * (made here), `settings` the user settings, `env` more environment.
   */
  constructor({ home, dir, settings, env = {} }) {
    this.entry = path.join(home, 'out', 'node', 'entry.js');
    this.dir = dir;
    this.env = environment(dir, env);
    this.output = '';
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'config.yaml'), 'auth: none\n');
    const user = path.join(dir, 'user-data', 'User');
    fs.mkdirSync(user, { recursive: true });
    fs.writeFileSync(path.join(user, 'settings.json'), JSON.stringify(settings, null, 2));
  }

  /** Installs the .vsix at `vsix`; throws with code-server's output if it fails. */
  installExtension(vsix) {
    const run = spawnSync(process.execPath,
      [this.entry, ...commonArguments(this.dir), '--install-extension', vsix],
      { env: this.env, encoding: 'utf8', timeout: 120_000 });
    if (run.status !== 0)
      throw new Error(`code-server --install-extension ${vsix} exited with ${run.status}:\n${run.stdout}${run.stderr}`);
    return run.stdout;
  }

  /** Serves on a free loopback port; resolves with the workbench's URL. */
  start(timeoutMs = 60_000) {
    // Its own process group: stop() ends the extension host, the pty host
    // and accy-lsp with it.
    this.process = spawn(process.execPath, [
      this.entry, ...commonArguments(this.dir),
      '--auth', 'none', '--bind-addr', '127.0.0.1:0',
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
      '--disable-getting-started-override', '--ignore-last-opened',
    ], { env: this.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`code-server did not listen within ${timeoutMs} ms:\n${this.output}`)),
        timeoutMs);
      const read = (chunk) => {
        this.output += chunk;
        const listening = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(this.output);
        if (listening) {
          clearTimeout(timer);
          resolve(`${listening[1]}/`);
        }
      };
      this.process.stdout.setEncoding('utf8').on('data', read);
      this.process.stderr.setEncoding('utf8').on('data', read);
      this.process.on('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited (${code ?? signal}):\n${this.output}`));
      });
    });
  }

  /** What the extension host wrote to the output channel `channel` (all its logs). */
  outputChannel(channel) {
    const logs = path.join(this.dir, 'user-data', 'logs');
    if (!fs.existsSync(logs)) return '';
    return fs.readdirSync(logs, { recursive: true })
      .filter((file) => path.basename(file).endsWith(`-${channel}.log`))
      .map((file) => fs.readFileSync(path.join(logs, file), 'utf8'))
      .join('');
  }

  /** Ends code-server and every process it started. */
  stop() {
    if (this.process === undefined) return;
    try {
      process.kill(-this.process.pid, 'SIGKILL');
    } catch {
      // the whole group has already gone
    }
  }
}
