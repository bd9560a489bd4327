"""The indexes: one module per index, one shape; no index imports a sibling (api passes data between them)."""
