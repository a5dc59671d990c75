#ifndef SHADE_CNCURSESW_SHIM_H
#define SHADE_CNCURSESW_SHIM_H
// Wide-character curses: without this define get_wch and wint_t vanish.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>

// Function-like macros and global variables do not import into Swift 6: re-export them.
static const attr_t shade_A_NORMAL = A_NORMAL;
static const attr_t shade_A_BOLD = A_BOLD;
static const attr_t shade_A_DIM = A_DIM;
static const attr_t shade_A_REVERSE = A_REVERSE;
static const attr_t shade_A_UNDERLINE = A_UNDERLINE;
static inline WINDOW *shade_stdscr(void) { return stdscr; }
static inline int shade_lines(void) { return LINES; }
static inline int shade_cols(void) { return COLS; }
static inline int shade_colors(void) { return COLORS; }
static inline int shade_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t shade_color_pair(int n) { return COLOR_PAIR(n); }
static inline int shade_key_f(int n) { return KEY_F(n); }
static inline WINDOW *shade_curscr(void) { return curscr; }
// newterm rather than initscr: initscr exits the process when $TERM is unknown; newterm returns NULL.
static inline SCREEN *shade_newterm(void) { return newterm(NULL, stdout, stdin); }
// wchar.h hides wcwidth unless _XOPEN_SOURCE is set before the first include, which the Glibc
// module has already done without it. ncurses counts columns with it, so Shade must too.
extern int wcwidth(wchar_t c);
static inline int shade_wcwidth(wchar_t c) { return wcwidth(c); }
static const mmask_t shade_BUTTON1_PRESSED = BUTTON1_PRESSED;
static const mmask_t shade_BUTTON1_CLICKED = BUTTON1_CLICKED;
static const mmask_t shade_BUTTON4_PRESSED = BUTTON4_PRESSED;
static const mmask_t shade_BUTTON5_PRESSED = BUTTON5_PRESSED;
#endif
