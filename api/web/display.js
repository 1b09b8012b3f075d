// The display settings shared by the pages: large print, and the tiles' faces (labelled
// words or classic pictures). Kept in this browser (localStorage) and applied before the
// first drawing; a change tells the page to draw again ('tilemate-display' event).

const KEY = 'tilemate-display';
/** The practice table's moment to undo each discard, in seconds (0: at once), kept in this browser. */
export const UNDO_KEY = 'tilemate-undo';
/** The moment a beginner is given unless she chose otherwise. */
export const UNDO_SECONDS = 3;

/** The seconds she chose to undo a discard in at the practice table. */
export function undoSeconds() {
  let kept = null;
  try { kept = localStorage.getItem(UNDO_KEY); } catch { kept = null; }
  const n = Number(kept ?? UNDO_SECONDS);
  return Number.isInteger(n) && n >= 0 && n <= 10 ? n : UNDO_SECONDS;
}

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

/**
 * Puts a "Display" button and its panel into the page's header tools (or its menu); `faces`
 * offers the tile faces, `undo` the practice table's moment to undo a discard.
 */
export function setupDisplay({ faces = true, undo = false } = {}) {
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
    </fieldset>` : ''}
    ${undo ? `<label class="choice"><input type="checkbox" id="undo-discard"> Give me ${UNDO_SECONDS} seconds to undo each discard</label>` : ''}`;
  tools.prepend(button);
  document.querySelector('header.top')?.after(panel);
  const large = /** @type {HTMLInputElement} */ (panel.querySelector('#large-print'));
  large.checked = !!settings.largePrint;
  for (const r of /** @type {NodeListOf<HTMLInputElement>} */ (panel.querySelectorAll('input[name="faces"]'))) r.checked = r.value === (settings.faces === 'classic' ? 'classic' : 'labelled');
  const undoBox = /** @type {HTMLInputElement | null} */ (panel.querySelector('#undo-discard'));
  if (undoBox) {
    undoBox.checked = undoSeconds() > 0;
    // kept apart from the looks: it changes how a discard is sent, not how the page is drawn
    undoBox.addEventListener('change', (e) => {
      e.stopPropagation();
      try { localStorage.setItem(UNDO_KEY, undoBox.checked ? String(UNDO_SECONDS) : '0'); } catch { /* private mode: the default next time */ }
    });
  }
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
