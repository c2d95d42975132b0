/**
 * The deployed resync period, minutes (ADR 0110): every store change reaches its reconcilers
 * through watches, so the resync is only the net for drift outside the store, and an hourly one
 * keeps a fleet at rest cheap. The embedded control plane keeps Cluster API's 10 minutes. No CDK
 * import here: the benchmark's cost model reads it too.
 */
export const DEFAULT_RESYNC_MINUTES = 60;
