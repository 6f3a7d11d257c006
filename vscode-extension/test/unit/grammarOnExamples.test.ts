// The TextMate grammar over the repository's example kernels (valid Accy):
// nothing may be marked invalid, and every kernel and fn name is found.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWASM, OnigScanner, OnigString } from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar } from 'vscode-textmate';

const root = path.join(__dirname, '../..');
const examples = path.join(root, '../examples/kernels');

async function loadGrammar(): Promise<IGrammar> {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new OnigScanner(patterns),
      createOnigString: (text: string) => new OnigString(text),
    }),
    loadGrammar: async () => {
      const file = path.join(root, 'syntaxes/accy.tmLanguage.json');
      return parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  const grammar = await registry.loadGrammar('source.accy');
  if (!grammar) throw new Error('the grammar did not load');
  return grammar;
}

/** Every token of `text` as [its text, its innermost scope]. */
function tokenize(grammar: IGrammar, text: string): [string, string][] {
  const tokens: [string, string][] = [];
  let state = INITIAL;
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens)
      tokens.push([line.slice(token.startIndex, token.endIndex), token.scopes.at(-1)!]);
    state = result.ruleStack;
  }
  return tokens;
}

describe('the grammar on the example kernels', async () => {
  const grammar = await loadGrammar();
  const files = fs.readdirSync(examples).filter((name) => name.endsWith('.accy'));

  it('has examples to read', () => {
    expect(files.length).toBeGreaterThan(3);
  });

  for (const name of files)
    it(`marks nothing invalid in ${name} and names every kernel and fn`, () => {
      const text = fs.readFileSync(path.join(examples, name), 'utf8');
      const tokens = tokenize(grammar, text);
      expect(tokens.filter(([, scope]) => scope.startsWith('invalid'))).toEqual([]);
      const declared = [...text.matchAll(/^\s*(?:kernel|fn)\s+([A-Za-z_]\w*)/gm)].map((m) => m[1]);
      const named = tokens
        .filter(([, scope]) => scope.startsWith('entity.name.function.') && !scope.includes('.call.'))
        .map(([token]) => token);
      expect(named.sort()).toEqual(declared.sort());
    });
});
