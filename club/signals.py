"""Every user has a Player profile, however the user was made."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models.signals import post_save
from django.dispatch import receiver

from club.models import Player, unique_display_name, validate_display_name


def _valid(name: str) -> bool:
    try:
        validate_display_name(name)
    except ValidationError:
        return False
    return True


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_player(sender, instance, created: bool, **kwargs) -> None:
    if created and not Player.objects.filter(user=instance).exists():
        wanted = getattr(instance, "_display_name", "") or instance.email.split("@")[0]
        wanted = wanted or instance.get_username()
        # createsuperuser and the admin make users from any email or username.
        if not _valid(wanted) or Player.objects.display_name_taken(wanted):
            wanted = unique_display_name(wanted)
        Player.objects.create(user=instance, display_name=wanted)
