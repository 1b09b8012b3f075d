import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * What `tilemate serve` (and `npm start`) says when it is ready, in plain lines: where to
 * open it, where the games are kept, which card it plays with, and how a tablet or phone on
 * the same Wi-Fi reaches it.
 */

export interface Started {
  /** The address printed first (`Tilemate is ready: URL`). */
  url: string;
  /** The address it listens on (`--host`). */
  host: string;
  port: number;
  /** The data folder, absolute. */
  dataDir: string;
  /** Where games are kept on a PostgreSQL server (host, port and database; never the password), or undefined for the embedded database. */
  database?: string;
  /** The card in use: its name, and its file when it is not the built-in practice card. */
  card: { name: string; file?: string };
}

const EVERY = new Set(['0.0.0.0', '::', '']);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const DEFAULT_PORT = 3000;
/** At most this many of the computer's addresses are printed (virtual networks add more). */
const MAX_ADDRESSES = 3;

/** This computer's addresses other devices can reach: IPv4, not its own loopback, not a link-local one it gave itself. */
export function lanAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const out: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) {
      if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.') && !out.includes(a.address)) out.push(a.address);
    }
  }
  return out;
}

const urlOf = (address: string, port: number): string => `http://${address.includes(':') ? `[${address}]` : address}:${port}/`;

/** The line said before the server is ready, so the wait is not a silent one. */
export function startingLine(dataDir: string, databaseUrl: string | undefined): string {
  return databaseUrl === undefined
    ? `Starting Tilemate: opening the games database in ${join(resolve(dataDir), 'db')} (a few seconds)...`
    : 'Starting Tilemate: connecting to the PostgreSQL database (a few seconds)...';
}

export function startLines(s: Started, interfaces?: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const lan = lanAddresses(interfaces).slice(0, MAX_ADDRESSES);
  const host = s.host.toLowerCase();
  let tablet: string;
  if (EVERY.has(host)) {
    tablet =
      lan.length > 0
        ? `To play from a tablet or phone on this Wi-Fi, open ${lan.map((a) => urlOf(a, s.port)).join(' or ')} there.`
        : `To play from a tablet or phone, connect this computer to the Wi-Fi and open http://<this computer's address>:${s.port}/ there.`;
  } else if (LOOPBACK.has(host)) {
    const command = `npx tilemate serve --host 0.0.0.0${s.port === DEFAULT_PORT ? '' : ` --port ${s.port}`}`;
    tablet = `To play from a tablet or phone on this Wi-Fi: ${command}, then open ${lan.length > 0 ? urlOf(lan[0], s.port) : `http://<this computer's address>:${s.port}/`} there.`;
  } else {
    tablet = `To play from a tablet or phone on this Wi-Fi, open ${urlOf(s.host, s.port)} there.`;
  }
  return [
    `Tilemate is ready: ${s.url}`,
    s.database === undefined ? `Data folder: ${s.dataDir} (games are kept in its embedded database, ${join(s.dataDir, 'db')}).` : `Games are kept in the PostgreSQL database ${s.database}.`,
    `Card: ${s.card.name}, ${s.card.file === undefined ? 'the built-in practice card (choose another with --card FILE)' : `from ${s.card.file}`}.`,
    tablet,
    'Press Ctrl-C to stop the server.',
  ];
}
