import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The editor's API exists only inside VS Code: tests get a fake of its edges.
    alias: { vscode: fileURLToPath(new URL('./test/fakes/vscode.ts', import.meta.url)) },
  },
  test: {
    testTimeout: 60_000,
  },
});
