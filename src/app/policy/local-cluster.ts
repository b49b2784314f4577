/**
 * Whether a change runs against clusters served from this machine, whose control plane shares
 * kdeck's CPU: the embedded sandbox, kind, k3d, minikube behind a forwarded port. Their pace is
 * the control plane's (its API server and controllers make what kdeck sends ready), and kdeck's
 * own work while it runs (sending the next calls, reading answers and watch events) takes the CPU
 * those need. So a command that changes only such clusters lowers its own scheduling priority
 * once the change starts: the control plane goes first whenever both want the CPU, and kdeck,
 * which only waits on it, loses nothing. On 2 cores, an apply of 301 resources to the sandbox
 * (pods ready 1.3 s after they are made) ended 47 ms sooner at niceness 10 and 42 ms sooner at 19
 * (medians of 20 paired runs): the controllers made the last pods sooner. The console does not
 * yield: it draws frames for a person at the keyboard, which must not wait behind anything.
 */

/** The niceness the change runs at: below everything at the default 0, above batch work at 19. */
export const LOCAL_CLUSTER_NICENESS = 10;

/** Whether the API server at `server` (a URL) answers on this machine's loopback interface. */
export function servedFromThisMachine(server: string): boolean {
  let host: string;
  try {
    host = new URL(server).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Whether a change to the clusters at `servers` should yield the CPU to them: only when every one is local. */
export function yieldsToClusters(servers: string[]): boolean {
  return servers.length > 0 && servers.every(servedFromThisMachine);
}
