// The extension's settings (package.json "contributes.configuration"), read
// once into a plain object so that everything downstream is testable.

/** The part of vscode.WorkspaceConfiguration the extension reads. */
export interface ConfigurationReader {
  get<T>(section: string, defaultValue: T): T;
}

export interface AccySettings {
  /** An explicit accy-lsp executable; empty: search PATH, then build trees. */
  serverPath: string;
  /** Extra command-line arguments, passed after the ones made from settings. */
  serverArguments: string[];
  /** Compile targets (`--target`); empty: the server's default. */
  targets: string[];
  /** Import search directories (`-I`), relative ones from the workspace folder. */
  includePaths: string[];
}

/** The configuration section of every setting. */
export const SETTINGS_SECTION = 'accy';

/** Settings whose change needs a new server process (they become its arguments). */
export const SERVER_PROCESS_SETTINGS = [
  'accy.server.path',
  'accy.server.arguments',
  'accy.targets',
  'accy.includePaths',
];

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((item): item is string => typeof item === 'string')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** Reads the settings of section `accy`, dropping values of the wrong type. */
export function readSettings(config: ConfigurationReader): AccySettings {
  const serverPath = config.get<unknown>('server.path', '');
  return {
    serverPath: typeof serverPath === 'string' ? serverPath.trim() : '',
    serverArguments: stringList(config.get<unknown>('server.arguments', [])),
    targets: stringList(config.get<unknown>('targets', [])),
    includePaths: stringList(config.get<unknown>('includePaths', [])),
  };
}
