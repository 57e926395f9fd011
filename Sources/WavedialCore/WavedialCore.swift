// The WavedialCore module: see docs/ARCHITECTURE.md.
