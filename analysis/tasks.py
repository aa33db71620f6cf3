"""Background tasks (django-tasks, database backend): run by `manage.py worker`."""

from __future__ import annotations

from django_tasks import task

from analysis import judging


@task()
def analyse_game(analysis_id: int) -> None:
    """Judge every member decision of one game (analysis.judging.run)."""
    judging.run(analysis_id)
