#!/usr/bin/env node
// accy-lsp random-edit replay: a deterministic, seeded stream of edits across
// several documents, through the same real LSP client as tests/lsp.
//
// Documents: copies of examples/kernels/*.accy and tests/lsp/inputs/*.accy
// (in one temporary directory, so their imports resolve). Edits, in bursts of
// 1 to 8 (a burst goes to one document, as typing does): typed characters,
// deleted characters (backspace, or a selected range), another digit in a
// float, blank and comment lines, pasted garbage (random
// code points from every UTF-8 length, astral-plane characters, combining
// marks, braces, quotes, keywords, newlines, CRLF, NUL, pieces of other
// documents), several changes in one didChange (multi-cursor), whole-text
// replacements, and undo (back to an earlier text of the document, sent as
// the one range that differs). Never a lone surrogate, a lone CR or a
// position inside a surrogate pair or a CRLF: what an editor never sends.
//
// After each burst: hover, completion, semantic tokens, document symbols,
// inlay hints and accy/stats on that document, each timed (they run
// concurrently, as an editor sends them).
//
// Checks: the server never exits; every request answers, without error, in
// under 2 s; diagnostics are never published for an older version after a
// newer one; each document's last diagnostics (the last publication once
// accy/stats answered) are for its final version and equal those of the
// final text opened fresh (so the server applied every incremental edit as
// the client did); resident memory at the end is within
// 10% of what it was after the first 10% of the edits (both measured once
// every document's compile has settled).
//
//   ACCY_LSP=build/lsp/accy-lsp node bench/lsp/replay.mjs [edits [seed [accy-lsp options]]]
//   (default 10000 edits, seed 1; the npm packages come from tests/lsp)
//
// tests/lsp/replay.test.mjs runs a short version of the same replay in ctest.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Session, uriOf, inputs } from '../../tests/lsp/harness.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const examples = path.join(root, 'examples', 'kernels');

/// mulberry32: a small, seeded, deterministic generator.
export function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (n) => Math.floor(next() * n);           // [0, n)
  next.range = (lo, hi) => lo + next.int(hi - lo + 1); // [lo, hi]
  next.pick = (xs) => xs[next.int(xs.length)];
  return next;
}

// ---------------------------------------------------------------------------
// Text and positions (UTF-16 code units, lines ended by \n or \r\n)
// ---------------------------------------------------------------------------

const isHigh = (c) => c >= 0xd800 && c <= 0xdbff;

/// Moves `offset` out of a surrogate pair or a CRLF (to its start).
function snap(text, offset) {
  offset = Math.max(0, Math.min(offset, text.length));
  if (offset > 0 && offset < text.length) {
    if (isHigh(text.charCodeAt(offset - 1))) return offset - 1;
    if (text[offset - 1] === '\r' && text[offset] === '\n') return offset - 1;
  }
  return offset;
}

function positionAt(text, offset) {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    ++line;
    start = i + 1;
  }
  return { line, character: offset - start };
}

function applyChange(text, change) {
  return text.slice(0, change.start) + change.text + text.slice(change.end);
}

// ---------------------------------------------------------------------------
// What gets typed and pasted
// ---------------------------------------------------------------------------

const TYPED = 'abcdefghijklmnopqrstuvwxyz_XNDB0123456789 .,:;=+-*/@()[]{}<>"\n';
const WORDS = ['kernel ', 'let ', 'fn ', 'return ', 'import "', 'const ', 'einsum("bi,ij->bj", ',
  'f32[', 'f64[', 'bf16[', 'i32', 'exp(', 'relu(', 'sum(', 'max(', ', axis=1, keepdims=true)',
  ' -> ', ': ', '@', '}', '{', '(', ')', '[', ']', '"', '//', '/*', '*/', '\n', '\r\n', '\t',
  'é', '€', 'ß', '中文', '😀', '𝔸', 'e\u0301', '\u200b', '\ufeff', '\u0000', 'N', 'D', '0.5', '1e-5'];

/// A random code point of a UTF-8 length of 1 to 4 bytes (no surrogates,
/// no lone CR: an editor normalizes line ends).
function codePoint(rnd) {
  for (;;) {
    const cp = rnd.pick([
      () => rnd.range(0x00, 0x7f), () => rnd.range(0x80, 0x7ff),
      () => rnd.range(0x800, 0xfffd), () => rnd.range(0x10000, 0x10ffff)])();
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp === 0x0d) continue;
    return String.fromCodePoint(cp);
  }
}

function garbage(rnd, texts) {
  switch (rnd.int(4)) {
    case 0: { // random code points
      let s = '';
      for (let n = rnd.range(1, 40); n > 0; --n) s += codePoint(rnd);
      return s;
    }
    case 1: { // braces, quotes, brackets
      let s = '';
      for (let n = rnd.range(1, 30); n > 0; --n) s += rnd.pick('{}{}()[]""<>;,\n');
      return s;
    }
    case 2: { // words and symbols
      let s = '';
      for (let n = rnd.range(1, 12); n > 0; --n) s += rnd.pick(WORDS);
      return s;
    }
    default: { // a piece of some document
      const t = rnd.pick(texts);
      const a = snap(t, rnd.int(t.length + 1));
      const b = snap(t, Math.min(t.length, a + rnd.range(1, 400)));
      return t.slice(a, b);
    }
  }
}

// ---------------------------------------------------------------------------
// The replay
// ---------------------------------------------------------------------------

const percentile = (xs, p) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const REQUESTS = ['textDocument/hover', 'textDocument/completion', 'textDocument/semanticTokens/full',
  'textDocument/documentSymbol', 'textDocument/inlayHint', 'accy/stats'];

/// Runs the replay; returns its figures (and throws nothing: failures are
/// listed in `problems`).
/// `limits`: the most milliseconds a request of each method may take
/// (default 2000 for every method).
export async function replay({ edits = 10000, seed = 1, log = () => {}, args = [], limits = {} } = {}) {
  const rnd = random(seed);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accy-replay-'));
  const sources = [
    ...fs.readdirSync(examples).filter((f) => f.endsWith('.accy')).map((f) => path.join(examples, f)),
    ...fs.readdirSync(inputs).filter((f) => f.endsWith('.accy')).map((f) => path.join(inputs, f))];
  for (const f of sources) fs.copyFileSync(f, path.join(dir, path.basename(f)));
  // Edited: every copy but the imported ones (common, helpers), which stay
  // on disk as the edited documents import them.
  const docs = sources.map((f) => path.basename(f)).filter((f) => !['common.accy', 'helpers.accy'].includes(f))
    .map((name) => {
      const file = path.join(dir, name);
      const text = fs.readFileSync(file, 'utf8');
      return { name, file, uri: uriOf(file), text, original: text, history: [text], version: 1 };
    });

  const figures = { edits: 0, bursts: 0, requests: 0, errors: 0, throughTarget: 0, latency: {}, rss: {}, problems: [] };
  const latencies = Object.fromEntries(REQUESTS.map((m) => [m, []]));
  const problem = (what) => { figures.problems.push(what); log(`PROBLEM: ${what}`); };

  const s = new Session(args);
  let exitCode = null;
  s.exited.then((code) => { exitCode = code; });
  const alive = () => exitCode === null && s.process.exitCode === null && s.process.signalCode === null;
  const published = new Map(); // uri -> highest version published so far

  /// Checks the diagnostics received so far (versions never go back) and
  /// forgets all but the latest of each document.
  const checkPublished = () => {
    for (const d of s.diagnostics) {
      const last = published.get(d.uri) ?? 0;
      if (d.version < last) problem(`${d.uri}: version ${d.version} published after ${last}`);
      published.set(d.uri, Math.max(last, d.version));
    }
    const latest = new Map();
    for (const d of s.diagnostics) latest.set(d.uri, d);
    s.diagnostics = [...latest.values()];
  };

  /// Waits until every document's current version is compiled, code
  /// generation included: diagnostics are published once the program is
  /// checked and again if code generation fails; accy/stats answers after
  /// both.
  const settle = async () => {
    for (const doc of docs) {
      await s.diagnosticsFor(doc.uri, doc.version, 60000);
      await s.stats(doc.uri);
    }
    checkPublished();
  };
  const lastPublished = (uri) => [...s.diagnostics].reverse().find((d) => d.uri === uri);

  const started = performance.now();
  try {
    await s.initialize();
    for (const doc of docs) s.open(doc.uri, doc.text);
    await settle();
    figures.rss.start = rssMiB(s.process.pid);
    const mark = Math.max(1, Math.round(edits / 10));

    while (figures.edits < edits) {
      if (!alive()) { problem(`the server exited (${exitCode ?? s.process.signalCode})`); break; }
      const doc = rnd.pick(docs);
      const burst = Math.min(rnd.range(1, 8), edits - figures.edits);
      // A third of the bursts are careful: back to the original text, then
      // only edits that keep it compiling through every stage (digits,
      // comments, blank lines), so the stages, not only the frontend, see
      // a share of the edits.
      const careful = rnd.int(3) === 0;
      for (let k = 0; k < burst; ++k) {
        const texts = docs.map((d) => d.text);
        const changes = [];
        const kind = !careful ? rnd.int(100) : k === 0 ? 70 : rnd.range(78, 94);
        const edit = (start, end, text) => {
          start = snap(doc.text, start);
          end = Math.max(start, snap(doc.text, end));
          changes.push({ range: { start: positionAt(doc.text, start), end: positionAt(doc.text, end) }, text });
          doc.text = applyChange(doc.text, { start, end, text });
        };
        if (kind < 25) { // type a character or two
          const at = rnd.int(doc.text.length + 1);
          edit(at, at, rnd.int(10) ? rnd.pick(TYPED) : rnd.pick(TYPED) + rnd.pick(TYPED));
        } else if (kind < 42) { // backspace, or delete a selection
          const at = rnd.int(doc.text.length + 1);
          const n = rnd.int(4) ? rnd.range(1, 3) : rnd.range(4, 200);
          edit(at - n, at, '');
        } else if (kind < 54) { // paste garbage, maybe over a selection
          const at = rnd.int(doc.text.length + 1);
          edit(at, at + (rnd.int(3) ? 0 : rnd.range(1, 50)), garbage(rnd, texts));
        } else if (kind < 60) { // several cursors: changes in one notification
          for (let n = rnd.range(2, 4); n > 0; --n) {
            const at = rnd.int(doc.text.length + 1);
            if (rnd.int(2)) edit(at, at, rnd.pick(WORDS));
            else edit(at - rnd.range(1, 5), at, '');
          }
        } else if (kind < 70) { // undo: back to an earlier text, as one range
          const earlier = doc.history[Math.max(0, doc.history.length - 1 - rnd.range(1, 10))];
          const cur = doc.text;
          let p = 0;
          while (p < cur.length && p < earlier.length && cur[p] === earlier[p]) ++p;
          let q = 0;
          while (q < cur.length - p && q < earlier.length - p &&
                 cur[cur.length - 1 - q] === earlier[earlier.length - 1 - q]) ++q;
          // Both ends on whole characters and CRLFs (the prefix and suffix
          // are common, so what holds in one text holds in the other).
          while (snap(cur, p) !== p) --p;
          while (q > 0 && snap(cur, cur.length - q) !== cur.length - q) --q;
          changes.push({ range: { start: positionAt(cur, p), end: positionAt(cur, cur.length - q) },
                         text: earlier.slice(p, earlier.length - q) });
          doc.text = earlier;
        } else if (kind < 78) { // undo everything: the original text, as one range
          const start = snap(doc.text, 0);
          changes.push({ range: { start: positionAt(doc.text, start), end: positionAt(doc.text, doc.text.length) },
                         text: doc.original });
          doc.text = doc.original;
        } else if (kind < 86 && /[0-9]\.[0-9]/.test(doc.text)) { // another digit in a float (recompiles a kernel)
          const digits = [];
          for (const m of doc.text.matchAll(/[0-9]\.([0-9])/g)) digits.push(m.index + 2);
          const at = rnd.pick(digits);
          edit(at, at + 1, String(rnd.int(10)));
        } else if (kind < 95) { // a blank or comment line (keeps a valid text valid)
          const lineStarts = [0];
          for (let i = doc.text.indexOf('\n'); i >= 0; i = doc.text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
          const at = rnd.pick(lineStarts);
          edit(at, at, rnd.pick(['\n', '// note\n', '  // é€😀\n', '/* x */\n']));
        } else { // the whole text, replaced (sometimes by an earlier one)
          const text = rnd.int(2) ? rnd.pick(doc.history) : doc.text + garbage(rnd, texts);
          changes.push({ text });
          doc.text = text;
        }
        doc.history.push(doc.text);
        if (doc.history.length > 30) doc.history.shift();
        doc.version = s.change(doc.uri, changes);
        ++figures.edits;
        if (rnd.int(4) === 0) await new Promise((r) => setTimeout(r, rnd.int(30))); // typing pace
      }
      ++figures.bursts;

      // The requests an editor sends after a burst, concurrently, timed.
      const offset = snap(doc.text, rnd.int(doc.text.length + 1));
      const position = positionAt(doc.text, offset);
      const end = positionAt(doc.text, doc.text.length);
      const textDocument = { uri: doc.uri };
      const params = {
        'textDocument/hover': { textDocument, position },
        'textDocument/completion': { textDocument, position },
        'textDocument/semanticTokens/full': { textDocument },
        'textDocument/documentSymbol': { textDocument },
        'textDocument/inlayHint': { textDocument, range: { start: { line: 0, character: 0 }, end } },
        'accy/stats': { uri: doc.uri },
      };
      await Promise.all(REQUESTS.map(async (method) => {
        const t0 = performance.now();
        try {
          const result = await s.request(method, params[method]);
          if (method === 'accy/stats') {
            if (result.version !== doc.version)
              problem(`accy/stats on ${doc.name}: version ${result.version}, not ${doc.version}`);
            const target = result.stages.find((r) => r.stage === 'target');
            if (target && (target.status === 'compiled' || target.status === 'reused')) ++figures.throughTarget;
          }
        } catch (e) {
          ++figures.errors;
          problem(`${method} on ${doc.name} v${doc.version}: ${e.message}`);
        }
        const ms = performance.now() - t0;
        latencies[method].push(ms);
        ++figures.requests;
        if (ms >= (limits[method] ?? 2000)) problem(`${method} on ${doc.name} v${doc.version} took ${ms.toFixed(0)} ms`);
      }));
      checkPublished();

      if (figures.rss.mark === undefined && figures.edits >= mark) {
        await settle();
        figures.rss.mark = rssMiB(s.process.pid);
        figures.rss.markEdits = figures.edits;
        log(`after ${figures.edits} edits: RSS ${figures.rss.mark.toFixed(1)} MiB`);
      }
      if (figures.bursts % 100 === 0)
        log(`${figures.edits} edits, ${figures.requests} requests, RSS ${rssMiB(s.process.pid).toFixed(1)} MiB, ` +
            `${((performance.now() - started) / 1000).toFixed(0)} s`);
    }

    // The end: every document's diagnostics for its final version, equal to
    // those of the same text opened fresh.
    if (alive()) {
      await settle();
      figures.rss.end = rssMiB(s.process.pid);
      for (const doc of docs) {
        const last = lastPublished(doc.uri);
        if (!last || last.version !== doc.version)
          problem(`${doc.name}: last diagnostics for version ${last?.version}, not ${doc.version}`);
        const fresh = path.join(dir, `fresh-${doc.name}`);
        fs.writeFileSync(fresh, doc.text);
        s.open(uriOf(fresh), doc.text);
        await s.diagnosticsFor(uriOf(fresh), 1, 60000);
        await s.stats(uriOf(fresh));
        const expected = lastPublished(uriOf(fresh)).diagnostics;
        const strip = (ds) => JSON.stringify(ds.map(({ range, message, code, source }) => ({ range, message, code, source })));
        if (strip(last?.diagnostics ?? []) !== strip(expected))
          problem(`${doc.name}: final diagnostics differ from those of its final text opened fresh:\n` +
                  `    edited: ${strip(last?.diagnostics ?? []).slice(0, 1500)}\n` +
                  `    fresh:  ${strip(expected).slice(0, 1500)}`);
      }
    }
    if (!alive()) problem(`the server exited (${exitCode ?? s.process.signalCode})`);
    else if (await s.shutdownAndExit() !== 0) problem('exit after shutdown did not return 0');
  } catch (e) {
    problem(`${e.stack ?? e}`);
  } finally {
    s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  figures.seconds = (performance.now() - started) / 1000;
  const all = Object.values(latencies).flat();
  figures.latency.max = Math.max(0, ...all);
  figures.latency.p95 = percentile(all, 95);
  for (const m of REQUESTS)
    figures.latency[m] = { p50: percentile(latencies[m], 50), p95: percentile(latencies[m], 95),
                           max: Math.max(0, ...latencies[m]) };
  if (figures.rss.mark && figures.rss.end)
    figures.rss.growth = figures.rss.end / figures.rss.mark - 1;
  figures.stderrTail = s.stderr.slice(-2000);
  return figures;
}

export function report(f) {
  const lines = [
    `${f.edits} edits in ${f.bursts} bursts, ${f.requests} requests (${f.errors} errors), ${f.seconds.toFixed(0)} s; ` +
      `${f.throughTarget} of the bursts left a document that compiled through the target stage`,
    `request latency: max ${f.latency.max.toFixed(0)} ms, p95 ${f.latency.p95.toFixed(1)} ms`,
    ...REQUESTS.map((m) => `  ${m}: p50 ${f.latency[m].p50.toFixed(1)} ms, p95 ${f.latency[m].p95.toFixed(1)} ms, max ${f.latency[m].max.toFixed(0)} ms`),
    `RSS: ${f.rss.start?.toFixed(1)} MiB after opening, ${f.rss.mark?.toFixed(1)} MiB after ${f.rss.markEdits} edits, ` +
      `${f.rss.end?.toFixed(1)} MiB at the end (${f.rss.growth === undefined ? '?' : (100 * f.rss.growth).toFixed(1) + '%'})`,
    `problems: ${f.problems.length}`, ...f.problems.slice(0, 20).map((p) => `  ${p}`)];
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const edits = Number(process.argv[2] ?? 10000);
  const seed = Number(process.argv[3] ?? 1);
  const args = process.argv.slice(4); // passed to accy-lsp (--target ...)
  const f = await replay({ edits, seed, args, log: (l) => console.log(l) });
  console.log(report(f));
  const memoryOk = f.rss.growth !== undefined && f.rss.growth <= 0.10;
  if (!memoryOk) console.log('FAIL: resident memory grew more than 10% after the first 10% of the edits');
  if (f.problems.length) console.log(`stderr of the server (tail):\n${f.stderrTail}`);
  process.exit(f.problems.length || !memoryOk ? 1 : 0);
}
