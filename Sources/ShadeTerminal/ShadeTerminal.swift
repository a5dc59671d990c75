// ShadeTerminal: the only code that calls curses.
import CNcursesw
import ShadeUI
