from allauth.account.adapter import DefaultAccountAdapter
from django.urls import reverse


def user_display(user) -> str:
    """What allauth calls a member in its pages and messages: their display name."""
    player = getattr(user, "player", None)
    return player.display_name if player else user.get_username()


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        # The post_save signal creates the Player; hand it the chosen name.
        user._display_name = form.cleaned_data.get("display_name", "")
        return super().save_user(request, user, form, commit=commit)

    def add_message(
        self,
        request,
        level,
        message_template=None,
        message_context=None,
        extra_tags="",
        message=None,
    ):
        # A new member is welcomed, not told they "signed in".
        if message_template == "account/messages/logged_in.txt" and request.path == reverse(
            "account_signup"
        ):
            message_template = "account/messages/signed_up.txt"
        return super().add_message(
            request, level, message_template, message_context, extra_tags, message
        )
