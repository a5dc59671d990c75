// ShadeCore: payload bytes → Push → Center → CenterState. Pure: no terminal, no socket, no file.
