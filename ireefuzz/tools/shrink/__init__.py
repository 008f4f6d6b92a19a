"""Shrinking: one greedy loop (``loop``), graph passes (``graph``), MLIR passes (``mlir``)."""
