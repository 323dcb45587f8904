"""The input door: every raw argument a user passes (labels, scores, weights, files, JSON state)
is validated and converted here, and every other module receives clean values.

This package is being filled in; see docs/architecture.md once written.
"""
