// The VS Code workbench in a Playwright page, driven as a person drives it:
// the command palette (F1), Quick Open (Ctrl+P), Go to Line (Ctrl+G) and
// clicks on what the workbench shows. Selectors are VS Code's own class
// names (those of its 1.99 workbench, which code-server 4.99 serves).

/** Retries `attempt` (which throws when it is not there yet) until `timeoutMs` has passed. */
export async function eventually(what, attempt, timeoutMs = 30_000, pauseMs = 500) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms (${last?.message ?? last})`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

export class Workbench {
  constructor(page) {
    this.page = page;
    this.quickInput = page.locator('.quick-input-widget');
  }

  async open(url, timeoutMs = 90_000) {
    await this.page.goto(url);
    await this.page.locator('.monaco-workbench .part.editor').waitFor({ timeout: timeoutMs });
  }

  /** Picks the row of the open quick input whose label is exactly `label`. */
  async pickQuickInputRow(label, timeoutMs = 30_000) {
    const exactly = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const row = this.quickInput.locator('.monaco-list-row', {
      has: this.page.locator('.label-name', { hasText: exactly }),
    }).first();
    await row.waitFor({ timeout: timeoutMs });
    await row.click();
    await this.quickInput.waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  /** Runs the command whose palette label is `label`. */
  async runCommand(label, timeoutMs = 30_000) {
    await this.page.keyboard.press('F1');
    await this.quickInput.waitFor({ timeout: timeoutMs });
    await this.page.keyboard.type(label);
    await this.pickQuickInputRow(label, timeoutMs);
  }

  /** Opens the workspace file `name` with Quick Open. */
  async openFile(name, timeoutMs = 30_000) {
    await this.page.keyboard.press('Control+P');
    await this.quickInput.waitFor({ timeout: timeoutMs });
    await this.page.keyboard.type(name);
    await this.pickQuickInputRow(name, timeoutMs);
    await this.page.locator(`.tab.active[aria-label*="${name}"]`).waitFor({ timeout: timeoutMs });
    await this.editor().click();
  }

  /** The text editor of the active editor group. */
  editor() {
    return this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  }

  /** Puts the cursor at `line`:`column` (both from 1) of the active editor. */
  async goTo(line, column) {
    await this.page.keyboard.press('Control+G');
    await this.quickInput.waitFor();
    await this.page.keyboard.type(`${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden' });
  }

  /** The Problems panel's rows as text (empty when it says there are none). */
  async problems() {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) await this.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    await panel.waitFor();
    return panel.locator('.monaco-list-row').allInnerTexts();
  }

  /** The frame whose document has `selector`: a webview's content is two iframes down. */
  async frameWith(selector) {
    for (const frame of this.page.frames()) {
      try {
        if (await frame.locator(selector).count() > 0) return frame;
      } catch {
        // a frame being replaced
      }
    }
    throw new Error(`no frame has ${selector}`);
  }
}
