// The pages' two DOM helpers, shared: `$` finds an element of the page, `el` makes one.

/**
 * The page's element a selector names. The pages' HTML holds every element they ask for by
 * id, so the element is typed as present; code that asks for one that may be missing checks
 * it with `?.`, as before. An element of a narrower kind (an input, a button) is cast to it
 * where it is used.
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
export function $(sel, root = document) {
  return /** @type {HTMLElement} */ (root.querySelector(sel));
}

/**
 * The page's element with this id (the pages that name their elements by id alone).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/** @typedef {Node | string | null | undefined | false} Child */

/**
 * What `el` sets on a new element: `class` and `text` (className and textContent), `data`
 * (data-* attributes), `on` (a click listener), attributes for `data-*`, `aria-*`, `role`,
 * `for` and `list` (and for any name the element has no property of), and properties for the
 * rest (`type`, `id`, `value`, `disabled`...). An undefined value sets nothing.
 * @typedef {{
 *   class?: string,
 *   text?: string,
 *   data?: Record<string, string | number>,
 *   on?: (event: MouseEvent) => void,
 *   [name: string]: unknown,
 * }} Props
 */

/** Names set as attributes even where the element has a property of the name (`list` is read-only). */
const ATTRIBUTES = new Set(['role', 'for', 'list']);

/**
 * A new element with its properties and children (nodes, text, or lists of them; null,
 * undefined and false are left out).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    if (k === 'class') e.className = String(v);
    else if (k === 'text') e.textContent = String(v);
    else if (k === 'data') for (const [dk, dv] of Object.entries(/** @type {Record<string, unknown>} */ (v))) e.dataset[dk] = String(dv);
    else if (k === 'on') e.addEventListener('click', /** @type {(event: Event) => void} */ (v));
    else if (k.startsWith('data-') || k.startsWith('aria-') || ATTRIBUTES.has(k) || !(k in e)) e.setAttribute(k, String(v));
    else /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (e))[k] = v;
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}
