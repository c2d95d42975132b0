import type { CliIo } from '../io/cli-io.js';

/** A live status line on a TTY (rewritten in place); plain lines, only when the text changes, otherwise. */
export interface Progress {
  update(text: string): void;
  /** Ends the live line and prints `text` as a normal line. */
  done(text: string): void;
  /** Removes the live line (TTY only). */
  clear(): void;
}

export function progressLine(io: CliIo): Progress {
  let last = '';
  const tty = io.stdout.isTTY === true;
  return {
    update(text) {
      if (text === last) return;
      last = text;
      io.stdout.write(tty ? `\r\x1b[2K${text}` : `${text}\n`);
    },
    clear() {
      if (tty && last !== '') io.stdout.write('\r\x1b[2K');
    },
    done(text) {
      io.stdout.write(tty ? `\r\x1b[2K${text}\n` : `${text}\n`);
    },
  };
}
