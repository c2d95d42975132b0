/** Formats seconds the way Go's `time.Duration.String()` does (`metav1.Duration` in kubeadm YAML). */
export function goDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const sign = seconds < 0 ? '-' : '';
  let rest = Math.abs(Math.trunc(seconds));
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const secs = rest - minutes * 60;
  if (hours > 0) return `${sign}${hours}h${minutes}m${secs}s`;
  if (minutes > 0) return `${sign}${minutes}m${secs}s`;
  return `${sign}${secs}s`;
}
