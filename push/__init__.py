"""The club on a phone: web app manifest, service worker, offline page, Web Push.

It imports notifications (what to push), the side apps, the tables and the club's
records, never the site's own modules.
"""
