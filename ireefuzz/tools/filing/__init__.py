"""From finding to filed issue: the repro bundle, ``ireefuzz repro``, ``ireefuzz bisect``."""
