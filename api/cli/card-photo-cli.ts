import type { Command } from 'commander';

/** `tilemate card import --photo`: being built (issue 44). */
export function registerCardImport(_card: Command, _exit: (code: number) => void): void {}
