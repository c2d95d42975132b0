export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/** JSON lines on stderr at or above `level`. */
export function consoleLogger(level: 'debug' | 'info' | 'warn' | 'error' = 'info', base: LogFields = {}): Logger {
  const order = ['debug', 'info', 'warn', 'error'];
  const min = order.indexOf(level);
  const write = (lvl: string, message: string, fields?: LogFields): void => {
    if (order.indexOf(lvl) < min) return;
    process.stderr.write(`${JSON.stringify({ level: lvl, time: new Date().toISOString(), message, ...base, ...fields })}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => consoleLogger(level, { ...base, ...fields }),
  };
}
