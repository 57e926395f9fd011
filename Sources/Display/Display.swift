// The Display module: see docs/ARCHITECTURE.md.
