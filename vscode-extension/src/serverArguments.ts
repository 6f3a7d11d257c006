import { resolveSettingPath } from './pathVariables';
import type { AccySettings } from './settings';

/**
 * The accy-lsp command line for the settings (see `accy-lsp --help`):
 * `-I DIR` per include path, `--target a,b` when targets are set, then the
 * user's own arguments, which come last so that they can override.
 */
export function serverArguments(
  settings: AccySettings,
  workspaceFolder: string | undefined,
): string[] {
  const args: string[] = [];
  for (const dir of settings.includePaths)
    args.push('-I', resolveSettingPath(dir, workspaceFolder));
  if (settings.targets.length > 0) args.push('--target', settings.targets.join(','));
  args.push(...settings.serverArguments);
  return args;
}
