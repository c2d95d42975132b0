/** EC2-shaped resource ids (`i-0123456789abcdef0`), unique within one fake. */

export class IdSource {
  private counter = 0;
  constructor(private readonly seed = Math.floor(Math.random() * 0xffff)) {}

  next(prefix: string): string {
    this.counter++;
    const hex = (this.seed.toString(16).padStart(4, '0') + this.counter.toString(16).padStart(13, '0')).slice(-17);
    return `${prefix}-${hex}`;
  }
}
