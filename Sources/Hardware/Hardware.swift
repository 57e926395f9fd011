// The Hardware module: see docs/ARCHITECTURE.md.
