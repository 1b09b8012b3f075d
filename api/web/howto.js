// "How to play": the example tiles of the page drawn as the table draws them.
import { pageTile } from './lines.js';

for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-tiles]'))) {
  const row = document.createElement('span');
  row.className = 'tile-row inline-tiles';
  row.append(...(el.dataset.tiles ?? '').split(' ').map((t) => pageTile(t)));
  el.replaceChildren(row);
}
