import type { Command } from 'commander';
import { registerCardImport } from './card-photo-cli.js';
import { registerCardRender } from './card-render-cli.js';

/**
 * `tilemate card`: the card editor's model at the terminal (engine/printed-card.ts): `check`
 * a card file, `export` it, `render` it in the printed style, `import` a photo of a printed card.
 */
export function registerCard(cmd: Command, exit: (code: number) => void): void {
  const card = cmd.command('card').description('your own card: check a card file, export it, draw it as printed, read a photo of a printed card');
  registerCardRender(card, exit);
  registerCardImport(card, exit);
}
