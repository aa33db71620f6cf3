"""Developers' tools that are not part of the site: no app here is installed.

tools/loadtest/ plays many live tables against running servers
(`python -m tools.loadtest`, docs/PERFORMANCE.md); tools/synthetic.py makes the
marked players and started tables it plays with (the server tests and benchmarks
use it too). The site never imports this package.
"""
