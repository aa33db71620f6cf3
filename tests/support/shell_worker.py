"""`manage.py shell -c` for many snippets in one process (tests/support/server.py).

Starting Django costs about a second; the real-server tests seed their
databases with dozens of snippets, so `SiteDatabase.shell` sends them here one
by one instead. Each snippet runs as `shell -c` runs it (the shell module's
globals plus its auto-imported models, a fresh namespace every time) and its
printed output comes back. Connections are closed after every snippet, as a
process exiting would: the servers must see its writes, and a database that a
test restarts must not leave a dead connection behind.

Protocol: one JSON string (the code) per line on stdin; one JSON object
{"ok": bool, "output": str} per line on the original stdout.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback


def main() -> None:
    # Run as a script, this file's folder would come first on the path and its
    # neighbours (tests/support/duplicate.py...) would shadow the site's apps.
    sys.path[0] = os.getcwd()
    # Our answers go on the original stdout; anything else printed outside a
    # snippet goes to stderr so it cannot corrupt the protocol.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    sys.stdout = sys.stderr

    import django

    django.setup()
    from django.core.management.commands import shell
    from django.db import connections

    namespace = {**vars(shell), **shell.Command().get_namespace(verbosity=0)}
    for line in sys.stdin:
        code = json.loads(line)
        output = io.StringIO()
        ok = True
        try:
            with contextlib.redirect_stdout(output):
                exec(code, dict(namespace))
        except BaseException:  # noqa: BLE001 - reported to the test, like the subprocess did
            ok = False
            output.write(traceback.format_exc())
        finally:
            connections.close_all()
        answers.write(json.dumps({"ok": ok, "output": output.getvalue()}) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
