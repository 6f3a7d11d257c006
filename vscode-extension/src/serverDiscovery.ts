import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveSettingPath } from './pathVariables';

/** Where the server was found, for the status bar and the log. */
export type ServerSource = 'setting' | 'PATH' | 'install prefix' | 'build directory';

export type Discovery =
  | { found: true; path: string; source: ServerSource }
  | { found: false; reason: string };

export interface DiscoveryInput {
  /** `accy.server.path`; empty when unset. */
  configuredPath: string;
  /** The PATH environment variable. */
  pathVariable: string | undefined;
  /** Where `cmake --install` or a package may have put Accy, in order; `bin/` of each is searched. */
  installPrefixes: string[];
  /** Absolute paths of the open workspace folders, first one first. */
  workspaceFolders: string[];
  platform?: NodeJS.Platform;
}

function executableName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'accy-lsp.exe' : 'accy-lsp';
}

/** The modification time of an executable regular file, else undefined. */
function executableTime(file: string, platform: NodeJS.Platform): number | undefined {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return undefined;
    // Windows has no execute bit; the name decides there.
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return stat.mtimeMs;
  } catch {
    return undefined;
  }
}

function pathList(variable: string | undefined, platform: NodeJS.Platform): string[] {
  return (variable ?? '').split(platform === 'win32' ? ';' : ':').filter((dir) => dir !== '');
}

function searchDirectories(dirs: string[], name: string, platform: NodeJS.Platform) {
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (executableTime(candidate, platform) !== undefined) return candidate;
  }
  return undefined;
}

/**
 * The prefixes an installed Accy is usually under: those CMake is pointed at
 * (CMAKE_PREFIX_PATH, where a user's find_package(Accy) looks), then
 * `cmake --install`'s default, the Debian package's and the user's own
 * (`~/.local`).
 */
export function defaultInstallPrefixes(
  env: NodeJS.ProcessEnv,
  home: string,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const usual =
    platform === 'win32'
      ? [path.join(env.ProgramFiles ?? 'C:\\Program Files', 'Accy')]
      : ['/usr/local', '/usr', path.join(home, '.local')];
  return [...pathList(env.CMAKE_PREFIX_PATH, platform), ...usual];
}

function subdirectories(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(dir, entry.name));
  } catch {
    return [];
  }
}

/**
 * The server of a CMake build tree at `buildDir`: a directory named build*
 * or one holding a CMakeCache.txt, with lsp/accy-lsp built in it.
 */
function builtServer(buildDir: string, name: string, platform: NodeJS.Platform) {
  const isBuildTree =
    path.basename(buildDir).startsWith('build') ||
    fs.existsSync(path.join(buildDir, 'CMakeCache.txt'));
  if (!isBuildTree) return undefined;
  const candidate = path.join(buildDir, 'lsp', name);
  const time = executableTime(candidate, platform);
  return time === undefined ? undefined : { path: candidate, time };
}

/**
 * The nearest build tree's server: from each workspace folder up to the
 * root, the folder itself and its subfolders are tried; at the first level
 * with a server, the most recently built one wins (several build trees of
 * one checkout are common: build, build-debug, ...).
 */
function searchBuildTrees(folders: string[], name: string, platform: NodeJS.Platform) {
  for (const folder of folders) {
    let dir = path.resolve(folder);
    for (;;) {
      const found = [dir, ...subdirectories(dir)]
        .map((candidate) => builtServer(candidate, name, platform))
        .filter((server) => server !== undefined)
        .sort((a, b) => b.time - a.time);
      if (found.length > 0) return found[0].path;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return undefined;
}

/**
 * Finds accy-lsp: the setting `accy.server.path` when given (and then only
 * there: a wrong setting is reported, not silently replaced), else PATH,
 * else `bin/` of an install prefix, else the nearest CMake build tree above
 * a workspace folder.
 */
export function discoverServer(input: DiscoveryInput): Discovery {
  const platform = input.platform ?? process.platform;
  const name = executableName(platform);
  if (input.configuredPath !== '') {
    const configured = resolveSettingPath(input.configuredPath, input.workspaceFolders[0]);
    if (executableTime(configured, platform) !== undefined)
      return { found: true, path: configured, source: 'setting' };
    return {
      found: false,
      reason: `The setting accy.server.path is "${input.configuredPath}", which is not an executable file.`,
    };
  }
  const pathDirs = pathList(input.pathVariable, platform);
  const onPath = searchDirectories(pathDirs, name, platform);
  if (onPath !== undefined) return { found: true, path: onPath, source: 'PATH' };
  const installDirs = input.installPrefixes.map((prefix) => path.join(prefix, 'bin'));
  const installed = searchDirectories(installDirs, name, platform);
  if (installed !== undefined) return { found: true, path: installed, source: 'install prefix' };
  const built = searchBuildTrees(input.workspaceFolders, name, platform);
  if (built !== undefined) return { found: true, path: built, source: 'build directory' };
  const list = (dirs: string[]) => (dirs.length > 0 ? dirs.join(', ') : 'none');
  return {
    found: false,
    reason:
      `Looked for ${name} on PATH (${list(pathDirs)}), in the install prefixes' bin/ ` +
      `(${list(installDirs)}) and in a CMake build directory (build*/lsp, or lsp/ of a tree ` +
      `with CMakeCache.txt) at or above the workspace folders (${list(input.workspaceFolders)}). ` +
      'Install Accy (cmake --install, or its Debian package) or set accy.server.path.',
  };
}
