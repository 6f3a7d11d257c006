#!/usr/bin/env node
// accy-lsp benchmark: a scripted editing session on a generated 1,000-line
// file with 50 kernels, through the same real LSP client as tests/lsp.
//
// Reports p50/p95 and the maximum of
//   - keystroke to diagnostics of that version (an edit inside one kernel),
//     at a typist's pace and with each keystroke right after the last one's
//     requests; the first keystroke, right after the file's first
//     diagnostics (while the code of every kernel is still to generate), on
//     its own,
//   - hover on a kernel (its stage table) and on a let name,
//   - completion,
//   - formatting the whole file (its signatures' continuation lines are
//     one column off accy-format's layout, so each answer is a real edit),
//   - code actions (quick fixes) at a misspelt built-in in the file, each
//     right after a keystroke elsewhere in it (so its frontend analysis is
//     built first) and again on an unchanged version,
//   - references, rename (the answer, not applied), documentHighlight on a
//     let and foldingRange of the whole file,
//   - in a generated workspace of 500 files: the time to index them in the
//     background, workspace/symbol once indexed, and keystroke to
//     diagnostics while the index is built against the same without it,
// the time to the first diagnostics of the file, the time until all of 20
// such files opened at once have diagnostics (an editor restoring its tabs;
// at most ALL_FILES_TIMEOUT_S, default 120, then how many had them), the
// peak resident memory with those 20 files open, and `accyc build` of the
// same file and edit in the same run, to show what in-process reuse saves.
//
//   ACCY_LSP=build/lsp/accy-lsp ACCYC=build/driver/accyc bench/lsp/run.mjs
// (the npm packages come from tests/lsp: run `npm ci` there first)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Session, uriOf, positionOf } from '../../tests/lsp/harness.mjs';
import { kernelFile } from '../../tests/lsp/generated.mjs';

const KERNELS = 50;
const EDITS = Number(process.env.EDITS ?? 60);
const NAVIGATIONS = Number(process.env.NAVIGATIONS ?? 60);
const WORKSPACE_FILES = Number(process.env.WORKSPACE_FILES ?? 500);
const FILES_FOR_MEMORY = 20;
// A typist at 40 words per minute: 200 characters a minute.
const TYPING_PACE_MS = 300;

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const summary = (xs) => `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`;
const ALL_FILES_TIMEOUT_MS = Number(process.env.ALL_FILES_TIMEOUT_S ?? 120) * 1000;

async function timed(fn) {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

function peakRssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/// `current` with the relu scale of kernel k{j} set to the digit `next`: the
/// new text and the change that makes it.
function typeDigit(current, j, next) {
  const at = positionOf(current, 'relu(s) * ', j);
  const digit = { line: at.line, character: at.character + 'relu(s) * '.length };
  const lines = current.split('\n');
  lines[digit.line] = lines[digit.line].slice(0, digit.character) + next + lines[digit.line].slice(digit.character + 1);
  const change = { range: { start: digit, end: { line: digit.line, character: digit.character + 1 } }, text: next };
  return { text: lines.join('\n'), change, digit };
}

/// Keystroke i: inside kernel k{j}, the scale of its relu changes. The
/// kernel, the digit's position, the digit, the text after it and the change.
function keystroke(current, i) {
  const j = (i * 7) % KERNELS;
  const next = String((i % 9) + 1);
  return { j, next, ...typeDigit(current, j, next) };
}

/// Edits inside one kernel at a time, each followed by a hover on that
/// kernel, a hover on a name and a completion; the next edit comes
/// `paceMs` after the previous one (at once, when its requests took longer).
async function editingSession(dir, text, paceMs) {
  const file = path.join(dir, 'bench.accy');
  fs.writeFileSync(file, text);
  const uri = uriOf(file);
  const s = new Session();
  try {
    await s.initialize();
    const [first] = await timed(async () => { s.open(uri, text); return s.diagnosticsFor(uri, 1, 10 * 60 * 1000); });
    const diagnostics = [], kernelHovers = [], nameHovers = [], completions = [], formattings = [];
    let current = text;
    for (let i = 0; i < EDITS; ++i) {
      const { j, digit, change, text: edited } = keystroke(current, i);
      current = edited;
      const sent = performance.now();
      const [ms, published] = await timed(async () => {
        const version = s.change(uri, [change]);
        return s.diagnosticsFor(uri, version);
      });
      if (published.diagnostics.length) throw new Error(JSON.stringify(published.diagnostics[0]));
      diagnostics.push(ms);
      kernelHovers.push((await timed(() => s.request('textDocument/hover', { textDocument: { uri }, position: positionOf(current, `k${j}(`) })))[0]);
      nameHovers.push((await timed(() => s.request('textDocument/hover', { textDocument: { uri }, position: positionOf(current, 'let var', j) })))[0]);
      completions.push((await timed(() => s.request('textDocument/completion', { textDocument: { uri }, position: digit })))[0]);
      const [formatMs, edits] = await timed(() => s.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }));
      if (edits.length !== 1) throw new Error(`formatting answered ${edits.length} edits`);
      formattings.push(formatMs);
      const rest = sent + paceMs - performance.now();
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
    const navigation = await navigationRequests(s, uri, current);
    const stats = await s.stats(uri);
    const ran = stats.stages.map((st) => `${st.stage} ${st.kernels.filter((k) => k.status === 'compiled').length} (${(st.seconds * 1e3).toFixed(1)} ms)`).join(', ');
    return { first, diagnostics, kernelHovers, nameHovers, completions, formattings, navigation, stats, ran, file, current };
  } finally {
    s.kill();
  }
}

/// References, rename, highlight (on the let `d` of kernel j, then of the
/// kernel k{j} itself) and folding, each timed apart.
async function navigationRequests(s, uri, text) {
  const references = [], renames = [], highlights = [], foldings = [];
  const doc = { textDocument: { uri } };
  for (let i = 0; i < NAVIGATIONS; ++i) {
    const j = (i * 11) % KERNELS;
    const onLet = positionOf(text, 'let d = ', j);
    const position = i % 2 ? { line: onLet.line, character: onLet.character + 4 } : positionOf(text, `k${j}(`);
    const [refMs, refs] = await timed(() => s.request('textDocument/references', { ...doc, position, context: { includeDeclaration: true } }));
    if (refs.length < 1) throw new Error('references answered nothing');
    references.push(refMs);
    const [renameMs, edit] = await timed(() => s.request('textDocument/rename', { ...doc, position, newName: `renamed${i}` }));
    if (!edit.changes[uri]?.length) throw new Error('rename answered no edit');
    renames.push(renameMs);
    highlights.push((await timed(() => s.request('textDocument/documentHighlight', { ...doc, position })))[0]);
    const [foldMs, folds] = await timed(() => s.request('textDocument/foldingRange', doc));
    if (folds.length < KERNELS) throw new Error(`foldingRange answered ${folds.length} ranges`);
    foldings.push(foldMs);
  }
  return { references, renames, highlights, foldings };
}

/// WORKSPACE_FILES files of three kernels each, every one importing a
/// shared file of a const and a fn.
function writeWorkspace(root) {
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, 'common.accy'),
    'const SCALE = 0.5;\n\nfn scaled(x: f32[N]) -> f32[N] {\n  return x * SCALE;\n}\n');
  for (let f = 0; f < WORKSPACE_FILES; ++f) {
    const sub = path.join(root, `pkg${f % 10}`);
    fs.mkdirSync(sub, { recursive: true });
    const body = kernelFile(3).replace(/kernel k(\d+)\(/g, (_, k) => `kernel m${f}_k${k}(`);
    fs.writeFileSync(path.join(sub, `model${f}.accy`), `import "../common.accy";\n${body}`);
  }
}

/// One keystroke every TYPING_PACE_MS inside kernel j of the open file;
/// the time of each to its diagnostics, and when each was sent.
async function typeKeystrokes(s, uri, text, count) {
  const times = [], sentAt = [];
  let current = text;
  for (let i = 0; i < count; ++i) {
    const { change, text: edited } = keystroke(current, i);
    current = edited;
    const sent = performance.now();
    sentAt.push(sent);
    const version = s.change(uri, [change]);
    await s.diagnosticsFor(uri, version);
    times.push(performance.now() - sent);
    const rest = sent + TYPING_PACE_MS - performance.now();
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  }
  return { times, sentAt };
}

/// A session on the 1,000-line file inside the generated workspace, with
/// the workspace folder named (indexed) or not.
async function workspaceSession(root, text, indexed) {
  const file = path.join(root, 'bench.accy');
  fs.writeFileSync(file, text);
  const uri = uriOf(file);
  const s = new Session();
  try {
    await s.initialize();
    s.open(uri, text);
    await s.diagnosticsFor(uri, 1, 10 * 60 * 1000);
    // The folder comes once the file is checked, so that its indexing runs
    // while the user types (as when a folder is added to the workspace).
    const start = performance.now();
    let indexEnd = null;
    const scanEnd = () => s.progress.find((p) => p.value.kind === 'end' && /^indexed \d+ files/.test(p.value.message));
    if (indexed) {
      s.connection.sendNotification('workspace/didChangeWorkspaceFolders',
        { event: { added: [{ uri: uriOf(root), name: 'bench' }], removed: [] } });
      s.until(scanEnd, 'the workspace scan', 10 * 60 * 1000).then(() => { indexEnd = performance.now(); }, () => {});
    }
    const typing = await typeKeystrokes(s, uri, text, 30);
    if (!indexed) return { typing };
    await s.until(scanEnd, 'the workspace scan', 10 * 60 * 1000);
    indexEnd ??= performance.now();
    const [, files, seconds] = /^indexed (\d+) files in ([0-9.]+) s/.exec(scanEnd().value.message);
    const serverSeconds = Number(seconds);
    const during = typing.times.filter((_, i) => typing.sentAt[i] < indexEnd);
    const symbols = [];
    let count = 0;
    for (let i = 0; i < 50; ++i) {
      const query = [`m${i * 7}_k`, 'k1', 'scal', `m${i}`, 'zz'][i % 5];
      const [ms, found] = await timed(() => s.request('workspace/symbol', { query }));
      symbols.push(ms);
      count = Math.max(count, found.length);
    }
    return { typing, during, files: Number(files), serverSeconds, wallSeconds: (indexEnd - start) / 1000, symbols, count };
  } finally {
    s.kill();
  }
}

/// Quick fixes at `sigmod` (for `sigmoid`) in kernel k0, each requested right
/// after a keystroke in another kernel, then on the same version again.
async function codeActionSession(dir, text) {
  const broken = text.replace('sigmoid(u)', 'sigmod(u)');
  const file = path.join(dir, 'actions.accy');
  fs.writeFileSync(file, broken);
  const uri = uriOf(file);
  const s = new Session();
  try {
    await s.initialize();
    s.open(uri, broken);
    const published = await s.diagnosticsFor(uri, 1, 10 * 60 * 1000);
    const range = published.diagnostics[0].range;
    const ask = async () => {
      const [ms, actions] = await timed(() => s.request('textDocument/codeAction',
        { textDocument: { uri }, range, context: { diagnostics: published.diagnostics } }));
      if (!actions.some((a) => a.title === "replace with 'sigmoid'")) throw new Error(JSON.stringify(actions));
      return ms;
    };
    const afterEdit = [], sameVersion = [];
    let current = broken;
    for (let i = 0; i < EDITS; ++i) {
      const j = 1 + (i * 7) % (KERNELS - 1);
      const typed = typeDigit(current, j, String((i % 9) + 1));
      current = typed.text;
      s.change(uri, [typed.change]);
      afterEdit.push(await ask());
    }
    for (let i = 0; i < EDITS; ++i) sameVersion.push(await ask());
    return { afterEdit, sameVersion };
  } finally {
    s.kill();
  }
}

/// Opens 20 copies of the file at once: the time until every one has its
/// first diagnostics (or how many had them by the timeout), and the peak
/// resident memory.
async function manyFiles(dir, text) {
  const s = new Session();
  try {
    await s.initialize();
    const uris = [];
    const start = performance.now();
    for (let i = 0; i < FILES_FOR_MEMORY; ++i) {
      const file = path.join(dir, `mem${i}.accy`);
      fs.writeFileSync(file, text);
      uris.push(uriOf(file));
      s.open(uris[i], text);
    }
    const diagnosed = () => uris.filter((uri) => s.diagnostics.some((d) => d.uri === uri && d.version === 1)).length;
    let allMs = null;
    try {
      await s.until(() => diagnosed() === uris.length, 'diagnostics of every file', ALL_FILES_TIMEOUT_MS);
      allMs = performance.now() - start;
    } catch {
      // Reported below as how many had diagnostics by then.
    }
    return { allMs, diagnosed: diagnosed(), rss: peakRssMiB(s.process.pid) };
  } finally {
    s.kill();
  }
}

function accycTimes(dir, text, edited) {
  const accyc = process.env.ACCYC;
  if (!accyc) return null;
  const file = path.join(dir, 'cli.accy');
  const out = path.join(dir, 'cli-out');
  const run = () => {
    const start = performance.now();
    execFileSync(accyc, ['build', file, '--target', 'host,sm_90', '-o', out], { stdio: 'ignore' });
    return performance.now() - start;
  };
  fs.writeFileSync(file, text);
  const cold = run();
  fs.writeFileSync(file, edited);
  const edit = run();
  return { cold, edit };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-lsp-bench-'));
try {
  const text = kernelFile(KERNELS);
  const session = await editingSession(dir, text, 0);
  const paced = await editingSession(dir, text, TYPING_PACE_MS);
  console.log(`file: ${text.split('\n').length - 1} lines, ${KERNELS} kernels; ${EDITS} edits, each inside one kernel`);
  console.log(`first diagnostics after open: ${session.first.toFixed(0)} ms`);
  console.log(`first keystroke right after them -> its diagnostics: ${session.diagnostics[0].toFixed(0)} ms (at a typist's pace: ${paced.diagnostics[0].toFixed(0)} ms)`);
  console.log(`keystroke -> diagnostics, one keystroke every ${TYPING_PACE_MS} ms: ${summary(paced.diagnostics)}`);
  console.log(`keystroke -> diagnostics, each keystroke right after the last one's requests: ${summary(session.diagnostics)}`);
  console.log(`hover on a kernel:            ${summary(session.kernelHovers)}`);
  console.log(`hover on a let name:          ${summary(session.nameHovers)}`);
  console.log(`completion:                   ${summary(session.completions)}`);
  console.log(`formatting the whole file:    ${summary(session.formattings)}`);
  const actions = await codeActionSession(dir, text);
  console.log(`code actions right after a keystroke: ${summary(actions.afterEdit)}`);
  console.log(`code actions, same version:   ${summary(actions.sameVersion)}`);
  const nav = session.navigation;
  console.log(`references (let, kernel):     ${summary(nav.references)}`);
  console.log(`rename (let, kernel):         ${summary(nav.renames)}`);
  console.log(`documentHighlight:            ${summary(nav.highlights)}`);
  console.log(`foldingRange, whole file:     ${summary(nav.foldings)}`);
  if (process.env.WORKSPACE !== '0') {
    const root = path.join(dir, 'workspace');
    writeWorkspace(root);
    const plain = await workspaceSession(root, text, false);
    const ws = await workspaceSession(root, text, true);
    console.log(`workspace of ${ws.files} files (${3 * WORKSPACE_FILES + 2} items): indexed in the background in ${ws.serverSeconds.toFixed(2)} s (server), ${ws.wallSeconds.toFixed(2)} s after the folder was added (client), while typing`);
    console.log(`workspace/symbol after indexing: ${summary(ws.symbols)}; up to ${ws.count} results`);
    console.log(`keystroke -> diagnostics, one every ${TYPING_PACE_MS} ms, no workspace index: ${summary(plain.typing.times)}`);
    console.log(`keystroke -> diagnostics, same, workspace indexed meanwhile:  ${summary(ws.typing.times)}; ${ws.during.length} keystrokes before the index was done${ws.during.length ? ` (${summary(ws.during)})` : ''}`);
  }
  console.log(`last edit's compile: ${(session.stats.compileSeconds * 1e3).toFixed(1)} ms; kernels compiled per stage: ${session.ran}; debounce ${session.stats.debounceMs} ms`);
  if (process.env.MEMORY === '0') process.exit(0);
  const many = await manyFiles(dir, text);
  console.log(many.allMs !== null
    ? `${FILES_FOR_MEMORY} such files opened at once: all diagnosed after ${(many.allMs / 1000).toFixed(1)} s`
    : `${FILES_FOR_MEMORY} such files opened at once: ${many.diagnosed} of ${FILES_FOR_MEMORY} diagnosed after ${ALL_FILES_TIMEOUT_MS / 1000} s`);
  console.log(`peak resident memory, ${FILES_FOR_MEMORY} such files open: ${many.rss.toFixed(0)} MiB`);
  // The same kind of edit as one keystroke of the session: k0's relu scale.
  const oneEdit = text.replace('relu(s) * 1.5', 'relu(s) * 1.75');
  const cli = accycTimes(dir, text, oneEdit);
  if (cli) {
    console.log(`accyc build, cold: ${cli.cold.toFixed(0)} ms (accy-lsp first diagnostics: ${session.first.toFixed(0)} ms)`);
    const p50 = percentile(session.diagnostics, 50);
    console.log(`accyc build after one edit (reusing its stage files): ${cli.edit.toFixed(0)} ms; accy-lsp keystroke -> diagnostics p50 ${p50.toFixed(0)} ms (ratio ${(cli.edit / p50).toFixed(1)}x)`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
