"""`python -m club.server`, the club's daphne at its documented address: an alias.

The server lives in club/serving/server.py (the serving plumbing); this module
stays so that the commands operators run (README, `make run`, systemd units) keep
working, with the same arguments.
"""

from club.serving.server import main

if __name__ == "__main__":
    main()
