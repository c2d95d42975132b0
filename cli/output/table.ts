/** Left-aligned columns separated by three spaces, like kubectl's tables. */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('   ')
      .trimEnd();
  return `${[headers, ...rows].map(line).join('\n')}\n`;
}
