// The server's custom requests (docs/lsp.md) and the standard ones the
// commands need, as typed helpers over anything that sends requests: the
// LanguageClient in the editor, a plain JSON-RPC connection in the tests.

export const STAGES = [
  'semantic',
  'contract',
  'tensor',
  'dispatch',
  'memory',
  'kernel',
  'target',
] as const;

export type StageName = (typeof STAGES)[number];

/**
 * Sends a request, passing the token only when there is one: JSON-RPC
 * senders take every argument after the method that is not a cancellation
 * token as a positional parameter, so an undefined token would turn the
 * params into an array.
 */
function send<R>(sender: RequestSender, method: string, params: unknown, token: unknown): Promise<R> {
  return token === undefined
    ? sender.sendRequest<R>(method, params)
    : sender.sendRequest<R>(method, params, token);
}

export function isStageName(value: string): value is StageName {
  return (STAGES as readonly string[]).includes(value);
}

/** The structural part of LanguageClient and vscode-jsonrpc's MessageConnection. */
export interface RequestSender {
  sendRequest<R>(method: string, params: unknown, token?: unknown): Promise<R>;
}

export interface KernelStageRecord {
  kernel: string;
  /** compiled, reused or failed. */
  status: string;
  key: string;
  fingerprint: string;
}

export interface StageRecord {
  stage: string;
  status: string;
  seconds: number;
  passRuns: number;
  kernels: KernelStageRecord[];
}

/** The answer of `accy/stats`: the current version's compile. */
export interface CompileStats {
  version: number;
  compileSeconds: number;
  compiles: { started: number; cancelled: number; finished: number };
  cachedProducts: number;
  debounceMs: number;
  stages: StageRecord[];
}

/** `accy/stageOutput`: one kernel's module in one stage's product, as MLIR text. */
export async function requestStageOutput(
  sender: RequestSender,
  uri: string,
  kernel: string,
  stage: StageName,
  token?: unknown,
): Promise<string> {
  const result = await send<{ text: string }>(
    sender,
    'accy/stageOutput',
    { uri, kernel, stage },
    token,
  );
  return result.text;
}

/** `accy/stats`: waits for the current version's compile. */
export function requestStats(sender: RequestSender, uri: string, token?: unknown) {
  return send<CompileStats>(sender, 'accy/stats', { uri }, token);
}

interface SymbolInformation {
  name: string;
  detail?: string;
}

/**
 * The kernels of a document, in source order, from its outline (which the
 * server builds from the parse tree, so a file with errors still has one).
 */
export async function requestKernelNames(
  sender: RequestSender,
  uri: string,
  token?: unknown,
): Promise<string[]> {
  const symbols = await send<SymbolInformation[] | null>(
    sender,
    'textDocument/documentSymbol',
    { textDocument: { uri } },
    token,
  );
  return (symbols ?? []).filter((symbol) => symbol.detail === 'kernel').map((s) => s.name);
}
