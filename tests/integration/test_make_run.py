"""`make run` serves the club as it is deployed (issue 35, point 11).

DEBUG stays off under `make run` unless asked for: a missing page is the
club's own 404 page, not Django's debug page, and `{% static %}` names the
hashed files the README promises (Django hands out unhashed names under
DEBUG). The run target's variables are read from make itself (a probe target
made a prerequisite of `run`, printed with `make -n`, which runs nothing), and
the site is then started as Django under exactly that environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.server import ROOT, collected_static

PROBE = "run: probe-run-env\nprobe-run-env:\n\t@echo RUN-ENV DJANGO_DEBUG=$(DJANGO_DEBUG)\n"

# In a fresh process with the run target's environment: what a visitor gets.
SITE_CHECK = """
import json, django
django.setup()
from django.conf import settings
from django.templatetags.static import static
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()
answers = {}
for host in ("127.0.0.1", "localhost"):
    response = Client(HTTP_HOST=host).get("/no-such-page/")
    answers[host] = [response.status_code, response.content.decode()]
print(json.dumps({"debug": settings.DEBUG, "css": static("css/site.css"), "answers": answers}))
"""


def run_target_env(tmp_path: Path) -> dict[str, str]:
    probe = tmp_path / "probe.mk"
    probe.write_text(PROBE)
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
    dry = subprocess.run(
        ["make", "-n", "-f", "Makefile", "-f", str(probe), "run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "DJANGO_DEBUG=1" not in dry.replace("RUN-ENV DJANGO_DEBUG", ""), dry
    line = next(line for line in dry.splitlines() if "RUN-ENV" in line)
    return dict(item.split("=", 1) for item in line.split()[2:])


def test_make_run_serves_the_clubs_404_page_and_hashed_static_files(tmp_path):
    made = run_target_env(tmp_path)
    assert made["DJANGO_DEBUG"] in {"0", ""}, made
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="club.settings",
        DJANGO_DEBUG=made["DJANGO_DEBUG"],
        STATIC_ROOT=collected_static(),
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
    )
    done = subprocess.run(
        [sys.executable, "-c", SITE_CHECK], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["debug"] is False
    # Hashed: css/site.<12 hex digits>.css, as collectstatic wrote it.
    assert seen["css"].startswith("/static/css/site.") and seen["css"] != "/static/css/site.css"
    for host, (status, page) in seen["answers"].items():
        assert status == 404, host
        assert "That page is not on the table" in page, host
        assert "Django tried these URL patterns" not in page, host
