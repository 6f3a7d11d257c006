// The few parts of the `vscode` module that the tested code touches, with
// the editor's own semantics: URIs come from vscode-uri (the implementation
// VS Code itself uses), events are delivered synchronously as VS Code does.
export { URI as Uri } from 'vscode-uri';

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
