from allauth.account.adapter import DefaultAccountAdapter


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        # The post_save signal creates the Player; hand it the chosen name.
        user._display_name = form.cleaned_data.get("display_name", "")
        return super().save_user(request, user, form, commit=commit)
