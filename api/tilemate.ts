import { main as cli } from './cli/cli.js';

/**
 * The `tilemate` command (bin/tilemate.js): the command line, with the practice server for
 * `tilemate serve`. The two edges meet only here, so the command line never imports the
 * server's code; the server is loaded when it is asked for (fastify and the routes take most
 * of the command line's start-up).
 */
export const main = (argv: string[]): Promise<number> => cli(argv, async (opts) => (await import('./http/server.js')).serve(opts));
