/**
 * Which contexts are production: those whose name or cluster says prod (`prod`, `production`,
 * `eu-prod-1`, `sandbox-prod`) as a word. The console colours them, and destructive actions on
 * them ask for the cluster's name typed out rather than a y.
 */
const PROD = /(^|[^a-z0-9])prod(uction)?([^a-z0-9]|$)/i;

export function isProdContext(context: { name: string; cluster?: string }): boolean {
  return PROD.test(context.name) || (context.cluster !== undefined && PROD.test(context.cluster));
}
