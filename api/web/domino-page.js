// The Mexican Train practice page (domino.html): domino.js draws the table, and this starts it.
// Importing domino.js starts nothing, so together.js can draw a table of its own with it.
import { practicePage } from './domino.js';

practicePage();
