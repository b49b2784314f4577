/**
 * The names of a sandbox's clusters: a, b, c, … one letter each. Apart from the kubeconfig writer
 * (and its YAML) because the command line's flags check against the limit at every start.
 */
export const MAX_CLUSTERS = 26;

export function clusterNames(n: number): string[] {
  if (!Number.isInteger(n) || n < 1 || n > MAX_CLUSTERS)
    throw new RangeError(`the number of clusters must be between 1 and ${MAX_CLUSTERS}, not ${n}`);
  return Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));
}
