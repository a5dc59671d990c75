// ShadeIO: sockets, framing, files, journal, replay timing.
import ShadeCore
