"""A real nginx in front of real daphne processes, from docs/deploy/nginx-club.conf.

The shipped example is used as it is; only its listening port, the two
upstream ports and the static files' path are replaced. nginx runs in the
foreground with a prefix directory of its own, so it needs no system service.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from tests.support.server import ROOT, free_port

EXAMPLE = ROOT / "docs" / "deploy" / "nginx-club.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def site_config(listen: int, upstreams: list[int], static_root: Path, logs_dir: Path) -> str:
    """The example with this test's ports and static path."""
    text = EXAMPLE.read_text()
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+.*$", text, flags=re.M)
    assert len(servers) == len(upstreams), "the example names one server line per process"
    for line, port in zip(servers, upstreams, strict=True):
        text = text.replace(line, re.sub(r":\d+", f":{port}", line, count=1), 1)
    text, listens = re.subn(
        r"^(\s*)listen \d+;", rf"\g<1>listen 127.0.0.1:{listen};", text, flags=re.M
    )
    assert listens == 1
    text, aliases = re.subn(r"alias [^;]+;", f"alias {static_root}/;", text)
    assert aliases == 1
    text, logs = re.subn(r"access_log /[^ ;]+ club;", f"access_log {logs_dir}/club.log club;", text)
    assert logs == 1
    return text


class Nginx:
    def __init__(self, prefix: Path, upstreams: list[int], static_root: Path) -> None:
        self.prefix = prefix
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        prefix.mkdir(parents=True, exist_ok=True)
        (prefix / "logs").mkdir(exist_ok=True)
        (prefix / "club.conf").write_text(
            site_config(self.port, upstreams, static_root, prefix / "logs")
        )
        user = "user root;\n" if _is_root() else ""
        (prefix / "nginx.conf").write_text(
            f"{user}worker_processes 1;\n"
            "daemon off;\n"
            f"pid {prefix}/nginx.pid;\n"
            f"error_log {prefix}/logs/error.log info;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            "    include /etc/nginx/mime.types;\n"
            f"    access_log {prefix}/logs/access.log;\n"
            f"    client_body_temp_path {prefix}/body;\n"
            f"    proxy_temp_path {prefix}/proxy;\n"
            f"    fastcgi_temp_path {prefix}/fastcgi;\n"
            f"    uwsgi_temp_path {prefix}/uwsgi;\n"
            f"    scgi_temp_path {prefix}/scgi;\n"
            f"    include {prefix}/club.conf;\n"
            "}\n"
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> Nginx:
        conf = str(self.prefix / "nginx.conf")
        check = subprocess.run(
            [NGINX, "-t", "-p", str(self.prefix), "-c", conf], capture_output=True, text=True
        )
        assert check.returncode == 0, check.stderr
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.prefix), "-c", conf],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"nginx did not answer:\n{self.error_log()}")

    def error_log(self) -> str:
        path = self.prefix / "logs" / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: finish, then exit
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def _is_root() -> bool:
    import os

    return os.geteuid() == 0
