/** A backend's last stderr lines (each cut to 500 characters): the hint a failure's reason ends with. */
export class StderrTail {
  private readonly lines: string[] = [];
  private readonly kept: number;

  constructor(kept = 20) {
    this.kept = kept;
  }

  push(line: string): void {
    this.lines.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
    if (this.lines.length > this.kept) this.lines.shift();
  }

  /** ` (stderr: a | b | c)` of the last three lines, or '' when there were none. */
  hint(): string {
    const last = this.lines.slice(-3).join(' | ');
    return last === '' ? '' : ` (stderr: ${last})`;
  }
}
