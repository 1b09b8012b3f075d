import { InvalidArgumentError } from 'commander';

/** Option parsers every command shares: a bad value is refused by commander with its reason. */

export function positiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of 1 or more');
  return n;
}

export function wholeNumber(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number of 0 or more');
  return n;
}

/** A whole number from min to max. */
export function count(min: number, max: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

/** A number from 0 to 1. */
export function fraction(text: string): number {
  const x = Number(text);
  if (!Number.isFinite(x) || x < 0 || x > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return x;
}

/** The PostgreSQL server to keep games on: the option, else DATABASE_URL; undefined for the embedded database. */
export function databaseUrl(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = option ?? env.DATABASE_URL;
  return url === undefined || url === '' ? undefined : url;
}
