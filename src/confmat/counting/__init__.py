"""Counting kernels: integer codes (and score bins) to K x K tables; numba with a numpy fallback."""
