"""A real worker process (`manage.py worker`: analysis, mail, pushes) on a test site's database."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

from tests.support.server import BIN, ROOT, SiteDatabase


class AnalysisWorker:
    """`env`: extra variables (e.g. a smaller ``ANALYSIS_SAMPLES``)."""

    def __init__(self, database: SiteDatabase, log_dir: Path, env: dict | None = None) -> None:
        self.database = database
        self.log_path = log_dir / "analysis-worker.log"
        # Normal priority unless asked: a worker at the lowest one would crawl on a loaded test machine.
        self.env = {"ANALYSIS_SAMPLES": "4", "ANALYSIS_WORKER_NICE": "0", **(env or {})}
        self.process: subprocess.Popen | None = None

    def start(self) -> AnalysisWorker:
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [str(BIN / "python"), "manage.py", "worker", "--interval", "0.2"],
            cwd=ROOT,
            env={**self.database.env(), **self.env},
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        return self

    def kill(self) -> None:
        """SIGKILL: the worker dies mid-task, as in a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self._log.close()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if not self._log.closed:
            self._log.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
