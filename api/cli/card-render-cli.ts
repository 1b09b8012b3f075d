import type { Command } from 'commander';

/** `tilemate card render`: being built (issue 44). */
export function registerCardRender(_card: Command, _exit: (code: number) => void): void {}
