/** The escape sequences the console writes to the terminal itself (Ink draws everything else). */
export const ENTER_ALT_SCREEN = '\u001B[?1049h\u001B[H';
export const LEAVE_ALT_SCREEN = '\u001B[?1049l';
export const SHOW_CURSOR = '\u001B[?25h';
