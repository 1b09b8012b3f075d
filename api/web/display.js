// The display settings shared by the pages: large print, and the tiles' faces (labelled
// words or classic pictures). Kept in this browser (localStorage) and applied before the
// first drawing; a change tells the page to draw again ('tilemate-display' event).

const KEY = 'tilemate-display';

/** @typedef {{ largePrint: boolean, faces: string }} Settings */

/** @returns {Settings} */
function load() {
  try { return { largePrint: false, faces: 'labelled', ...JSON.parse(localStorage.getItem(KEY) ?? '{}') }; } catch { return { largePrint: false, faces: 'labelled' }; }
}

/** @param {Settings} s */
function apply(s) {
  document.documentElement.classList.toggle('large-print', !!s.largePrint);
  document.documentElement.dataset.faces = s.faces === 'classic' ? 'classic' : 'labelled';
}

/** Puts a "Display" button and its panel into the page's header tools (or its menu); `faces` offers the tile faces. */
export function setupDisplay({ faces = true } = {}) {
  const settings = load();
  apply(settings);
  // a page with a menu in its header (the practice table) keeps the button there
  const tools = document.querySelector('header.top .menu-items') ?? document.querySelector('header.top .tools');
  if (!tools) return;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn';
  button.id = 'settings-button';
  button.textContent = 'Display';
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', 'settings-panel');
  const panel = document.createElement('div');
  panel.id = 'settings-panel';
  panel.className = 'hidden';
  panel.setAttribute('role', 'group');
  panel.setAttribute('aria-label', 'Display settings');
  panel.innerHTML = `
    <label class="choice"><input type="checkbox" id="large-print"> Large print</label>
    ${faces ? `<fieldset><legend>Tile faces</legend>
      <label class="choice"><input type="radio" name="faces" value="labelled"> Words (5 Bam, North)</label>
      <label class="choice"><input type="radio" name="faces" value="classic"> Classic pictures</label>
    </fieldset>` : ''}`;
  tools.prepend(button);
  document.querySelector('header.top')?.after(panel);
  const large = /** @type {HTMLInputElement} */ (panel.querySelector('#large-print'));
  large.checked = !!settings.largePrint;
  for (const r of /** @type {NodeListOf<HTMLInputElement>} */ (panel.querySelectorAll('input[name="faces"]'))) r.checked = r.value === (settings.faces === 'classic' ? 'classic' : 'labelled');
  const changed = () => {
    const next = { largePrint: large.checked, faces: /** @type {HTMLInputElement | null} */ (panel.querySelector('input[name="faces"]:checked'))?.value ?? 'labelled' };
    localStorage.setItem(KEY, JSON.stringify(next));
    apply(next);
    document.dispatchEvent(new CustomEvent('tilemate-display'));
  };
  panel.addEventListener('change', changed);
  button.addEventListener('click', () => {
    const open = panel.classList.toggle('hidden') === false;
    button.setAttribute('aria-expanded', String(open));
  });
}
