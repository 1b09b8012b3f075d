// The practice page (index.html): app.js draws the table, and this starts it. Importing app.js
// starts nothing, so together.js (and a test) can draw a table of their own with it.
import { practicePage } from './app.js';
import { wireCodeBox } from './code-box.js';
import { byId } from './dom.js';

practicePage();
// a club's card by its code, typed by hand under the start form (code-box.js)
wireCodeBox({ form: /** @type {HTMLFormElement} */ (byId('code-form')), input: /** @type {HTMLInputElement} */ (byId('club-code')), message: byId('club-code-message') });
