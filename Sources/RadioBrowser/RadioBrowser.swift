// The RadioBrowser module: see docs/ARCHITECTURE.md.
