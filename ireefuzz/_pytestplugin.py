"""ireefuzz's pytest plugin (import-light: no IREE or JAX import at load)."""
