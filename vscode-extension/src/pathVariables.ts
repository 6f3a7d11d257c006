import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Expands `${workspaceFolder}`, `${userHome}` and a leading `~` in a path
 * from the settings, then makes a relative path absolute against the
 * workspace folder (VS Code does not substitute variables in settings).
 */
export function resolveSettingPath(
  value: string,
  workspaceFolder: string | undefined,
  home: string = os.homedir(),
): string {
  let resolved = value
    .replace(/\$\{userHome\}/g, home)
    .replace(/^~(?=$|[\\/])/, home);
  if (workspaceFolder !== undefined)
    resolved = resolved.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  if (!path.isAbsolute(resolved) && workspaceFolder !== undefined)
    resolved = path.join(workspaceFolder, resolved);
  return resolved;
}
