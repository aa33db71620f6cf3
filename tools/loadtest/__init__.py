"""The live tables' load tool: `python -m tools.loadtest --help` (docs/PERFORMANCE.md).

run.py plays the tables over websockets and reports; probe.py is its HTTP side;
measure.py its percentiles and CPU figures.
"""
