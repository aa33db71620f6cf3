"""In Chromium, with the real task worker and a push service on loopback (issue 46).

Anna turns push on from the notifications settings page: the browser's permission
is asked on her click and not before. Headless Chromium has no push service of
its own (subscribing needs Google's, which the tests never reach), so
PushManager's subscribe/getSubscription answer with a subscription on the tests'
receiver (tests/support/push_receiver.py); everything after that is real: the
subscription goes to the site, Boris invites Anna while she is away, the worker
encrypts and signs the push and the receiver verifies and decrypts it. That very
payload is then delivered to Anna's service worker through the DevTools protocol
(ServiceWorker.deliverPushMessage): it shows a notification, and its click
handler opens the table. A system notification cannot be clicked in headless
Chromium, so the click is a `notificationclick` event dispatched in the worker,
which may not open a new window without a real click: the handler then takes
the club's open window to the table, as it does when openWindow is refused.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from push import keys
from tests.e2e.test_table_browser import sign_up
from tests.support.push_receiver import PushReceiver
from tests.support.server import DaphneServer, SiteDatabase, free_port
from tests.support.worker import AnalysisWorker

pytestmark = pytest.mark.browser

FAKE_PUSH = """
(() => {
  const given = %s;
  // Like a browser's, the subscription outlives the page (kept in localStorage here).
  const stored = () => localStorage.getItem("fake-push") === "on";
  const make = () => ({
    endpoint: given.endpoint,
    toJSON: () => given,
    unsubscribe: async () => { localStorage.removeItem("fake-push"); return true; },
  });
  window.__permissionAsked = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.__permissionAsked += 1; return ask(...args); };
  PushManager.prototype.subscribe = async function (options) {
    window.__subscribed = {
      userVisibleOnly: options.userVisibleOnly,
      keyLength: new Uint8Array(options.applicationServerKey).length,
    };
    localStorage.setItem("fake-push", "on");
    return make();
  };
  PushManager.prototype.getSubscription = async function () { return stored() ? make() : null; };
})();
"""


def test_push_on_from_the_settings_page_a_delivered_push_and_its_click(chromium_browser, tmp_path):
    private, public = keys.make_pair()
    receiver = PushReceiver(public).start()
    phone = receiver.device("anna-phone")
    database = SiteDatabase(tmp_path)
    database.create()
    port = free_port()
    env = {
        "PUSH_VAPID_PRIVATE_KEY": private,
        "PUSH_TEST_ORIGIN": receiver.origin,
        "SITE_URL": f"http://127.0.0.1:{port}",
        "NOTIFY_PUMP_SECONDS": "0.3",
    }
    server = DaphneServer(database, tmp_path, port=port, env=env).start()
    worker = AnalysisWorker(database, tmp_path, env).start()
    contexts = []

    def context():
        made = chromium_browser.new_context(base_url=server.url, bypass_csp=True)
        made.set_default_timeout(20_000)
        contexts.append(made)
        return made

    try:
        anna_context, boris_context = context(), context()
        anna_context.grant_permissions(["notifications"], origin=server.url)
        anna_context.add_init_script(FAKE_PUSH % json.dumps(phone.subscription(receiver.origin)))
        anna, boris = anna_context.new_page(), boris_context.new_page()
        anna_name = sign_up(anna, "Anna")
        sign_up(boris, "Boris")

        anna.goto("/notifications/settings/")
        status = anna.get_by_test_id("push-status")
        expect(status).to_have_text("Push is off for this device.")
        assert anna.evaluate("window.__permissionAsked") == 0  # never on load
        # Anna takes invitations from members she never played with (Boris).
        anna.get_by_test_id("preference-strangers").locator("input").check()
        anna.get_by_test_id("save-preferences").click()
        expect(anna.locator(".messages")).to_be_visible()
        assert anna.evaluate("window.__permissionAsked") == 0
        anna.get_by_test_id("push-on").click()
        expect(status).to_have_text("Push is on for this device.")
        assert anna.evaluate("window.__permissionAsked") == 1
        assert anna.evaluate("window.__subscribed") == {"userVisibleOnly": True, "keyLength": 65}
        anna.reload()
        expect(anna.get_by_test_id("push-device")).to_have_count(1)
        expect(anna.get_by_test_id("push-off")).to_be_visible()

        # Anna leaves the site; Boris invites her to his private turn-based table.
        anna.goto("about:blank")
        boris.goto("/tables/")
        form = boris.get_by_test_id("create-table")
        form.get_by_label("Game").select_option(label="Golf")
        form.get_by_label("Seats").fill("2")
        form.get_by_label("Private (only people with the invite link can join)").check()
        form.get_by_label("Pace").select_option(label="1 day a move")
        form.get_by_role("button", name="Open table").click()
        boris.wait_for_url(re.compile(r"/tables/\d+/$"))
        table_path = re.search(r"/tables/\d+/", boris.url).group(0)
        boris.get_by_test_id("invite-name").fill(anna_name)
        boris.get_by_test_id("invite-send").click()
        expect(boris.locator(".messages")).to_contain_text(f"{anna_name} is invited.")

        receiver.wait_for(lambda: len(receiver.to("anna-phone")) == 1)
        [push] = receiver.to("anna-phone")
        assert receiver.refused == []
        assert push.message["title"] == "Invitations"
        assert "Boris" in push.message["body"]
        assert table_path in push.message["url"]

        # The same payload, delivered to Anna's service worker through the DevTools protocol.
        anna.goto("/")
        anna.evaluate(
            """async () => {
                await navigator.serviceWorker.ready;
                if (!navigator.serviceWorker.controller) {
                  await new Promise((resolve) => navigator.serviceWorker.addEventListener(
                    "controllerchange", resolve, {once: true}));
                }
            }"""
        )
        cdp = anna_context.new_cdp_session(anna)
        registrations = []
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.extend(event["registrations"]),
        )
        cdp.send("ServiceWorker.enable")
        ours: list[dict] = []
        for _ in range(200):  # the protocol's events arrive while Playwright waits
            ours = [r for r in registrations if r["scopeURL"] == f"{server.url}/"]
            if ours:
                break
            anna.wait_for_timeout(50)
        assert ours, registrations
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": server.url,
                "registrationId": ours[0]["registrationId"],
                "data": json.dumps(push.message),
            },
        )
        shown = None
        for _ in range(200):  # until the worker has shown it (each look awaits the worker)
            shown = anna.evaluate(
                """async () => {
                    const registration = await navigator.serviceWorker.ready;
                    const [shown] = await registration.getNotifications();
                    return shown ? {title: shown.title, body: shown.body, tag: shown.tag,
                                    url: shown.data && shown.data.url} : null;
                }"""
            )
            if shown:
                break
            anna.wait_for_timeout(100)
        assert shown == {
            "title": push.message["title"],
            "body": push.message["body"],
            "tag": push.message["tag"],
            "url": push.message["url"],
        }

        # Its click: the worker's notificationclick handler opens the table.
        [service_worker] = anna_context.service_workers
        service_worker.evaluate(
            """async () => {
                const [shown] = await self.registration.getNotifications();
                self.dispatchEvent(new NotificationEvent("notificationclick", {notification: shown}));
            }"""
        )
        anna.wait_for_url(re.compile(re.escape(table_path)))
        expect(anna.get_by_test_id("join-button")).to_be_visible()
    finally:
        for made in contexts:
            made.close()
        worker.stop()
        server.stop()
        receiver.stop()
        database.drop()
