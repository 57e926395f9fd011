// The Audio module: see docs/ARCHITECTURE.md.
