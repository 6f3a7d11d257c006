// The parts of the `vscode` module that the tested code touches, with
// the editor's own semantics: URIs come from vscode-uri (the implementation
// VS Code itself uses), events are delivered synchronously as VS Code does.
import { URI } from 'vscode-uri';

export { URI as Uri };

type Listener<T> = (value: T) => unknown;

export class Disposable {
  constructor(private readonly onDispose: () => void) {}
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class MarkdownString {
  constructor(public value = '') {}
  appendMarkdown(text: string): this {
    this.value += text;
    return this;
  }
}

export class ThemeColor {
  constructor(public readonly id: string) {}
}

// ---------------------------------------------------------------------------
// The editor around the extension: enough of window, workspace and commands
// to activate the bundle, recording what the extension shows and registers.
// ---------------------------------------------------------------------------

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
}

// vscode-languageclient extends these editor classes when it loads.
export class CompletionItem {}
export class CodeLens {}
export class DocumentLink {}
export class CodeAction {}
export class Diagnostic {}
export class CallHierarchyItem {}
export class TypeHierarchyItem {}
export class SymbolInformation {}
export class InlayHint {}
export class CancellationError extends Error {}

interface ShownMessage {
  severity: 'information' | 'warning' | 'error';
  text: string;
  buttons: string[];
}

/** What the editor showed and registered, and the answers the "user" gives. */
export const editor = {
  configuration: {} as Record<string, unknown>,
  workspaceFolders: undefined as { uri: URI }[] | undefined,
  messages: [] as ShownMessage[],
  /** The button the user clicks on the next message (undefined: dismissed). */
  answer: undefined as string | undefined,
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  executed: [] as unknown[][],
  statusItems: [] as { text: string; tooltip: unknown; shown: boolean }[],
  /** The document of the active text editor. */
  activeDocument: undefined as { uri: URI; languageId: string } | undefined,
  /** The labels the user picks in the next quick picks, in order (undefined: dismissed). */
  picks: [] as (string | undefined)[],
  /** The placeholders and labels of the quick picks shown. */
  quickPicks: [] as { placeHolder?: string; labels: string[] }[],
  /** Documents opened in an editor, by URI. */
  opened: [] as string[],
  /** What was written to output channels, by channel name. */
  output: new Map<string, string[]>(),
  configurationListeners: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  folderListeners: new EventEmitter<unknown>(),
  reset(): void {
    this.configuration = {};
    this.workspaceFolders = undefined;
    this.messages = [];
    this.answer = undefined;
    this.commands.clear();
    this.executed = [];
    this.statusItems = [];
    this.activeDocument = undefined;
    this.picks = [];
    this.quickPicks = [];
    this.opened = [];
    this.output = new Map();
    this.configurationListeners = new EventEmitter();
    this.folderListeners = new EventEmitter();
  },
  /** Adds a workspace folder as the Explorer does: the new list, then the event. */
  addWorkspaceFolder(folder: string): void {
    this.workspaceFolders = [...(this.workspaceFolders ?? []), { uri: URI.file(folder) }];
    this.folderListeners.fire({});
  },
  /** Changes settings as the Settings editor does: new values, then the event. */
  changeConfiguration(values: Record<string, unknown>): void {
    Object.assign(this.configuration, values);
    const changed = Object.keys(values).map((key) => `accy.${key}`);
    this.configurationListeners.fire({
      affectsConfiguration: (section) =>
        changed.some((key) => key === section || key.startsWith(`${section}.`)),
    });
  },
};

const noDisposal = new Disposable(() => undefined);

function show(severity: ShownMessage['severity']) {
  return (text: string, ...buttons: unknown[]) => {
    editor.messages.push({ severity, text, buttons: buttons.filter((b): b is string => typeof b === 'string') });
    return Promise.resolve(editor.answer);
  };
}

type QuickPickItem = string | { label: string };

export const window = {
  get activeTextEditor() {
    return editor.activeDocument && { document: editor.activeDocument };
  },
  showQuickPick(items: QuickPickItem[], options?: { placeHolder?: string }) {
    const labels = items.map((item) => (typeof item === 'string' ? item : item.label));
    editor.quickPicks.push({ placeHolder: options?.placeHolder, labels });
    const pick = editor.picks.shift();
    return Promise.resolve(items.find((_, i) => labels[i] === pick));
  },
  showTextDocument(document: { uri: URI }) {
    editor.opened.push(document.uri.toString());
    return Promise.resolve({ document });
  },
  showInformationMessage: show('information'),
  showWarningMessage: show('warning'),
  showErrorMessage: show('error'),
  createStatusBarItem() {
    const item = {
      text: '',
      tooltip: undefined as unknown,
      shown: false,
      show() {
        item.shown = true;
      },
      dispose() {},
    };
    editor.statusItems.push(item);
    return item;
  },
  onDidChangeActiveTextEditor: () => noDisposal,
  createOutputChannel(name: string) {
    const lines: string[] = [];
    editor.output.set(name, lines);
    return { name, appendLine: (line: string) => lines.push(line), show() {}, dispose() {} };
  },
};

export const workspace = {
  get workspaceFolders() {
    return editor.workspaceFolders;
  },
  getConfiguration(section: string) {
    return {
      get<T>(key: string, defaultValue: T): T {
        const value = editor.configuration[key];
        return section === 'accy' && value !== undefined ? (value as T) : defaultValue;
      },
    };
  },
  registerTextDocumentContentProvider: () => noDisposal,
  openTextDocument(uri: URI) {
    return Promise.resolve({ uri });
  },
  onDidCloseTextDocument: () => noDisposal,
  onDidChangeWorkspaceFolders: (listener: (event: unknown) => unknown) =>
    editor.folderListeners.event(listener),
  onDidChangeConfiguration: (listener: (event: { affectsConfiguration(section: string): boolean }) => unknown) =>
    editor.configurationListeners.event(listener),
};

export const commands = {
  registerCommand(id: string, run: (...args: unknown[]) => unknown) {
    editor.commands.set(id, run);
    return new Disposable(() => editor.commands.delete(id));
  },
  executeCommand(...args: unknown[]) {
    editor.executed.push(args);
    return Promise.resolve(undefined);
  },
};
