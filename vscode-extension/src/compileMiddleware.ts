import type { Middleware } from 'vscode-languageclient';

/**
 * Passes diagnostics on to the editor, then reports that `uri` has a new
 * compile: the server publishes diagnostics once per finished compile of
 * the current version (and never for a cancelled one), so this is the
 * client's signal to refresh stage documents and the status bar.
 */
export function compileMiddleware(onCompiled: (uri: string) => void): Middleware {
  return {
    handleDiagnostics(uri, diagnostics, next) {
      next(uri, diagnostics);
      onCompiled(uri.toString());
    },
  };
}
