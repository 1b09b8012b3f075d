// The practice page (index.html): app.js draws the table, and this starts it. Importing app.js
// starts nothing, so together.js (and a test) can draw a table of their own with it.
import { practicePage } from './app.js';

practicePage();
