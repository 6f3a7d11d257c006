// Drives the real accy-lsp binary through vscode-jsonrpc and the LSP
// protocol types, as an editor would. ACCY_LSP names the binary.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after } from 'node:test';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import rpc from 'vscode-jsonrpc/node.js';
import lsp from 'vscode-languageserver-protocol';

export const inputs = path.join(path.dirname(fileURLToPath(import.meta.url)), 'inputs');
export const uriOf = (file) => pathToFileURL(file).href;
export const { ErrorCodes, LSPErrorCodes } = lsp;

export function serverPath() {
  const server = process.env.ACCY_LSP;
  if (!server) throw new Error('set ACCY_LSP to the accy-lsp binary');
  return server;
}

/// Every server a test started; those a failed test left running are killed
/// when the file's tests end, or they would keep node, and ctest, waiting.
const servers = new Set();
after(() => { for (const server of servers) server.kill(); });

/// Options every server of the run gets, e.g. ACCY_LSP_ARGS="--retained-documents 1".
const extraArgs = (process.env.ACCY_LSP_ARGS ?? '').split(' ').filter(Boolean);

function spawnServer(args = []) {
  const server = spawn(serverPath(), [...extraArgs, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  servers.add(server);
  server.on('exit', () => servers.delete(server));
  return server;
}

/// A running server and a client connection to it.
export class Session {
  constructor(args = []) {
    this.process = spawnServer(args);
    this.stderr = '';
    this.process.stderr.on('data', (d) => { this.stderr += d; });
    this.exited = once(this.process, 'exit').then(([code]) => code);
    this.connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(this.process.stdout),
      new rpc.StreamMessageWriter(this.process.stdin));
    this.diagnostics = [];       // every publishDiagnostics, in order
    this.progress = [];          // every $/progress value
    this.waiters = [];
    this.connection.onNotification('textDocument/publishDiagnostics', (p) => {
      this.diagnostics.push(p);
      this.wake();
    });
    this.connection.onNotification('$/progress', (p) => { this.progress.push(p); this.wake(); });
    this.connection.onNotification('window/logMessage', () => {});
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.listen();
    this.versions = new Map();
  }

  wake() {
    for (const w of [...this.waiters]) w();
  }

  /// Resolves when `predicate()` holds (checked after every notification).
  until(predicate, what, timeoutMs = 20000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = predicate();
        if (value) {
          this.waiters = this.waiters.filter((w) => w !== check);
          clearTimeout(timer);
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      this.waiters.push(check);
      check();
    });
  }

  async initialize(capabilities = {}) {
    const result = await this.connection.sendRequest('initialize', {
      processId: process.pid, rootUri: null,
      capabilities: { window: { workDoneProgress: true }, ...capabilities },
    });
    this.connection.sendNotification('initialized', {});
    return result;
  }

  open(uri, text, version = 1) {
    this.versions.set(uri, version);
    this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'accy', version, text },
    });
    return version;
  }

  /// Sends one didChange with `changes`; returns the new version.
  change(uri, changes) {
    const version = this.versions.get(uri) + 1;
    this.versions.set(uri, version);
    this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version }, contentChanges: changes,
    });
    return version;
  }

  /// The diagnostics published for `uri` at `version`.
  diagnosticsFor(uri, version, timeoutMs = 20000) {
    return this.until(() => this.diagnostics.find((d) => d.uri === uri && d.version === version),
      `diagnostics of ${uri} version ${version}`, timeoutMs);
  }

  request(method, params) {
    return this.connection.sendRequest(method, params);
  }

  stats(uri) {
    return this.request('accy/stats', { uri });
  }

  async shutdownAndExit() {
    await this.request('shutdown', null);
    this.connection.sendNotification('exit');
    return this.exited;
  }

  kill() {
    this.connection.dispose();
    this.process.kill();
  }
}

/// The UTF-16 position (what JavaScript strings index) of `needle` in text.
/// { kernel: { stage: status } } of the compile accy/stats answered with.
export function kernelStatuses(stats) {
  const out = {};
  for (const stage of stats.stages)
    for (const k of stage.kernels)
      (out[k.kernel] ??= {})[stage.stage] = k.status;
  return out;
}

export function positionOf(text, needle, occurrence = 0) {
  let index = -1;
  for (let i = 0; i <= occurrence; ++i) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`'${needle}' not in the text`);
  }
  const before = text.slice(0, index).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

/// The same position in UTF-8 bytes.
export /// `text` with LSP TextEdits applied (UTF-16 positions, as JS indexes).
function applyEdits(text, edits) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; ++i) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p) => lineStarts[p.line] + p.character;
  const sorted = [...edits].sort((x, y) => offset(y.range.start) - offset(x.range.start));
  for (const e of sorted)
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}

export function utf8PositionOf(text, needle) {
  const { line, character } = positionOf(text, needle);
  const lineText = text.split('\n')[line];
  return { line, character: Buffer.byteLength(lineText.slice(0, character), 'utf8') };
}

/// A client that writes raw bytes, for what no well-behaved library sends:
/// malformed JSON, wrong lengths, missing headers.
export class RawClient {
  constructor() {
    this.process = spawnServer();
    this.exited = once(this.process, 'exit').then(([code]) => code);
    this.buffer = Buffer.alloc(0);
    this.messages = [];
    this.waiters = [];
    this.process.stdout.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end < 0) break;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())[1]);
        if (this.buffer.length < end + 4 + length) break;
        this.messages.push(JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString()));
        this.buffer = this.buffer.subarray(end + 4 + length);
      }
      for (const w of [...this.waiters]) w();
    });
    this.process.stderr.resume();
  }

  write(bytes) {
    this.process.stdin.write(bytes);
  }

  /// Frames and sends a message.
  send(message) {
    const body = Buffer.from(JSON.stringify(message));
    this.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  }

  /// The first message received (in order) that `predicate` accepts and
  /// that no earlier call took.
  next(predicate, what, timeoutMs = 20000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const index = this.messages.findIndex(predicate);
        if (index < 0) return;
        const [message] = this.messages.splice(index, 1);
        this.waiters = this.waiters.filter((w) => w !== check);
        clearTimeout(timer);
        resolve(message);
      };
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      this.waiters.push(check);
      check();
    });
  }

  response(id) {
    return this.next((m) => m.id === id && !m.method, `the response to ${id}`);
  }

  kill() {
    this.process.kill();
  }
}

/// Runs `body(session)` against an initialized server (with the client
/// `capabilities`), and kills the server however the body ends.
export async function withSession(body, capabilities = {}) {
  const s = new Session();
  try {
    await s.initialize(capabilities);
    return await body(s);
  } finally {
    s.kill();
  }
}
