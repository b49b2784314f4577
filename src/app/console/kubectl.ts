/**
 * The kubectl command that does what a per-object view or action of the console does, with the
 * kubeconfig and context the console uses, so that what was done on screen can be done (or
 * scripted) on the command line: `kubectl --kubeconfig K --context sandbox-a -n web describe
 * deployment/web`. Pure.
 */
import type { SelectedObject } from './selected-object.js';

/** `text` as one shell word: quoted when it holds anything a shell would take apart. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The kubectl command for `args` on the object's cluster and namespace. One kubeconfig file is
 * passed with --kubeconfig; several (a KUBECONFIG list) go before the command as KUBECONFIG.
 */
export function kubectlCommand(
  files: readonly string[],
  o: Pick<SelectedObject, 'cluster' | 'namespace'>,
  args: readonly string[],
): string {
  const config = files.length === 1 ? ['--kubeconfig', files[0]] : [];
  const env = files.length > 1 ? `KUBECONFIG=${shellWord(files.join(':'))} ` : '';
  const words = ['kubectl', ...config, '--context', o.cluster, ...(o.namespace ? ['-n', o.namespace] : []), ...args];
  return env + words.map(shellWord).join(' ');
}
