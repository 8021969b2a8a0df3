// A GFM pipe table from rows of cell markdown (already escaped, pipes included): the first row is
// the header, every row padded to the widest with empty cells (GFM has no ragged rows).

export function pipeTable(rows: readonly (readonly string[])[]): string {
  let columns = 0;
  for (const row of rows) columns = Math.max(columns, row.length);
  const line = (row: readonly string[]) => {
    const cells = row.slice();
    while (cells.length < columns) cells.push('');
    return `| ${cells.join(' | ')} |`;
  };
  const [head, ...body] = rows;
  return [line(head ?? []), `|${' --- |'.repeat(columns)}`, ...body.map(line)].join('\n');
}
