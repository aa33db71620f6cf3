"""Make a VAPID key pair for Web Push: `manage.py push_keys` (README, PUSH_VAPID_PRIVATE_KEY)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from push.keys import make_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as environment variables."

    def handle(self, *args, **options) -> None:
        private, public = make_pair()
        self.stdout.write(
            "# Keep the private key secret, and keep it: a new pair voids every member's\n"
            "# push subscriptions (their browsers subscribed with the old public key).\n"
            f"PUSH_VAPID_PRIVATE_KEY={private}\n"
            f"# The public key (browsers get it from the site; shown here for reference):\n"
            f"# {public}\n"
        )
